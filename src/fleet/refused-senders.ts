// Recently refused senders (no peer group admits them), in Redis for the whole fleet: the dashboard lists them
// so an operator can admit one, and the refusal is logged once per sender and channel (a SET NX with a ttl).
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { changeArgs } from '../core/dashboard-changes.ts';
import { globalTag } from '../core/key-layout.ts';
import type { Logger } from '../core/logger.ts';
import { parseRecord } from '../core/redis-record.ts';
import { loadRedisScript } from '../core/redis-script.ts';

const noteRefused = loadRedisScript(join(import.meta.dirname, 'lua', 'note-refused-sender-3.lua'));

/** A refusal is logged again after a day, so an operator reading today's log still sees it. */
export const REFUSAL_LOG_TTL_SECS = 24 * 60 * 60;
/** What the dashboard keeps: the last refusals of a week, at most this many senders. */
export const REFUSED_KEPT = 200;
export const REFUSED_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export const refusedSenderSchema = z.object({
  channel: z.string().min(1),
  agent: z.string().min(1),
  user_id: z.string().min(1),
  username: z.string().nullable(),
  chat: z.string(),
  is_direct: z.boolean(),
});
export type RefusedSenderRecord = z.infer<typeof refusedSenderSchema>;
export type RefusedSender = RefusedSenderRecord & { last_refused_at: number };

export interface RefusedSenders {
  /** Records the refusal; true when it is the first of this sender on this channel within the log ttl. */
  note(rec: RefusedSenderRecord): Promise<boolean>;
  /** Most recent first, each record validated (an unreadable one is skipped and logged). */
  list(limit: number): Promise<RefusedSender[]>;
  get(channel: string, userId: string): Promise<RefusedSender | null>;
  /** Drops the sender from the list and from the log gate (admitted; a later refusal is logged again). */
  forget(channel: string, userId: string): Promise<void>;
}

const member = (channel: string, userId: string) => JSON.stringify([channel, userId]);

/** One hash tag: a refusal moves the log gate, the list and the records in one script (§15.1.1). */
export function refusedSendersKeys(prefix: string) {
  const base = globalTag(prefix, 'refused-senders');
  return {
    list: `${base}:recent`,
    records: `${base}:records`,
    gate: (channel: string, userId: string) =>
      `${base}:logged:${createHash('sha1').update(member(channel, userId)).digest('hex')}`,
  };
}

export function createRefusedSenders(redis: Redis, prefix: string, logger: Logger): RefusedSenders {
  const keys = refusedSendersKeys(prefix);
  const read = (raw: string | null | undefined, m: string) =>
    parseRecord(refusedSenderSchema, raw, { logger, key: `${keys.records}[${m}]`, what: 'refused sender' });
  return {
    async note(rec) {
      const m = member(rec.channel, rec.user_id);
      const first = await noteRefused(
        redis,
        [keys.gate(rec.channel, rec.user_id), keys.list, keys.records],
        [
          REFUSAL_LOG_TTL_SECS,
          m,
          JSON.stringify(rec),
          REFUSED_KEPT,
          REFUSED_MAX_AGE_MS,
          ...changeArgs(prefix, 'senders', rec.channel),
        ],
      );
      return Number(first) === 1;
    },
    async list(limit) {
      const flat = await redis.zrevrange(keys.list, 0, Math.max(0, limit - 1), 'WITHSCORES');
      const members: string[] = [];
      const scores: number[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) {
        members.push(flat[i]!);
        scores.push(Number(flat[i + 1]));
      }
      if (members.length === 0) return [];
      const raws = await redis.hmget(keys.records, ...members);
      const out: RefusedSender[] = [];
      members.forEach((m, i) => {
        const rec = read(raws[i], m);
        if (rec) out.push({ ...rec, last_refused_at: scores[i]! });
      });
      return out;
    },
    async get(channel, userId) {
      const m = member(channel, userId);
      const [raw, score] = await Promise.all([redis.hget(keys.records, m), redis.zscore(keys.list, m)]);
      const rec = read(raw, m);
      return rec && score !== null ? { ...rec, last_refused_at: Number(score) } : null;
    },
    async forget(channel, userId) {
      const m = member(channel, userId);
      const [pub, change] = changeArgs(prefix, 'senders', channel);
      await redis
        .multi()
        .zrem(keys.list, m)
        .hdel(keys.records, m)
        .del(keys.gate(channel, userId))
        .publish(pub, change)
        .exec();
    },
  };
}
