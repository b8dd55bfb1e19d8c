// Reading pending approvals back (approvals.md §10): one record, a reply token's record, the pending list and the
// 7-day audit. Every record is validated; a gone or unreadable one (logged) is skipped.
import type { Redis } from 'ioredis';
import { isUuid } from '../core/ids.ts';
import type { Logger } from '../core/logger.ts';
import { type ApprovalKeys, type ApprovalRecord, decodeApprovalRecord, REPLY_TOKEN_RE } from './record.ts';

export interface ApprovalReads {
  /** The record, or null when unknown, not a UUID, or unreadable (logged). */
  get(id: string): Promise<ApprovalRecord | null>;
  /** Text mode: the record whose token is indexed for this channel and chat (case-insensitive), or null. */
  findByReplyToken(channel: string, chat: string, token: string): Promise<ApprovalRecord | null>;
  /** Pending records, oldest first (GET /api/approvals). */
  listPending(limit?: number): Promise<ApprovalRecord[]>;
  /** Settled records of the last 7 days, newest first (GET /api/approvals/audit). */
  listAudit(limit?: number): Promise<ApprovalRecord[]>;
}

export function createApprovalReads(opts: {
  redis: Redis;
  keys: ApprovalKeys;
  logger: Pick<Logger, 'warn'>;
}): ApprovalReads {
  const { redis, keys, logger } = opts;
  const get = async (id: string): Promise<ApprovalRecord | null> => {
    if (!isUuid(id)) return null; // tampered button data never becomes a key
    const key = keys.record(id);
    return decodeApprovalRecord(await redis.hgetall(key), { logger, key });
  };
  /** Records behind the ids of a sorted set, newest first; gone or unreadable ones (logged) are skipped. */
  const recordsOf = async (ids: string[]): Promise<ApprovalRecord[]> => {
    if (ids.length === 0) return [];
    const pipe = redis.pipeline();
    for (const id of ids) pipe.hgetall(keys.record(id));
    const rows = (await pipe.exec()) ?? [];
    const out: ApprovalRecord[] = [];
    rows.forEach(([err, raw], i) => {
      if (err) return;
      const rec = decodeApprovalRecord(raw as Record<string, string>, { logger, key: keys.record(ids[i]!) });
      if (rec) out.push(rec);
    });
    return out;
  };

  return {
    get,
    async findByReplyToken(channel, chat, token) {
      const t = token.toLowerCase();
      if (!REPLY_TOKEN_RE.test(t)) return null;
      const id = await redis.get(keys.token(channel, chat, t));
      const rec = id ? await get(id) : null;
      // The index names the record; the record must name the index back (a stale or forged index is no match).
      return rec && rec.channel === channel && rec.destination.chat === chat && rec.reply_token === t
        ? rec
        : null;
    },
    listPending: async (limit = 100) => recordsOf(await redis.zrange(keys.pending, 0, String(limit - 1))),
    listAudit: async (limit = 100) => recordsOf(await redis.zrevrange(keys.audit, 0, String(limit - 1))),
  };
}
