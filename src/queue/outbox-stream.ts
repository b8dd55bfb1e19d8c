// A channel's outbox stream of one partition as its gateway consumes it: consumer group reads, reclaim,
// keep-alive, ack. Every entry of it belongs to a conversation of that partition, so a batch ack with the
// conversations' last-sent marks touches one slot.
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { KeySpace } from '../core/key-layout.ts';
import type { Logger } from '../core/logger.ts';
import { parseRecord } from '../core/redis-record.ts';
import { loadRedisScript } from '../core/redis-script.ts';
import { OUTBOX_GROUP, outboxStreamKeyOf, partitionOfConversation, replySentKey } from './names.ts';
import { type OutboxEntry, parseOutboxEntry, type RawOutboxEntry } from './outbox-entry.ts';

const ackReplies = loadRedisScript(join(import.meta.dirname, 'lua', 'ack-replies-var.lua'));
/** Acknowledgements made in one tick leave together; a batch stays well under Lua's unpack limit. */
const MAX_ACK_BATCH = 500;
const SENT_MARK_TTL_SECS = 30 * 24 * 60 * 60;
/** A multi-chunk reply's progress outlives any retry schedule. */
const PROGRESS_TTL_SECS = 7 * 24 * 60 * 60;

export interface OutboxStream {
  /** Creates the consumer group if missing (a new deployment, or a Redis that lost its data). */
  ensureGroup(): Promise<void>;
  /** New entries for this consumer, waiting up to `blockMs`; `reader` is a connection only this loop uses. */
  read(reader: Redis, count: number, blockMs: number): Promise<OutboxEntry[]>;
  /**
   * Up to `count` entries left unacknowledged longer than `minIdleMs` by any consumer (one that crashed),
   * now ours, oldest first.
   */
  reclaim(minIdleMs: number, count: number): Promise<OutboxEntry[]>;
  /** Resets the idle time of entries this consumer is still working on, so nobody reclaims them. */
  touch(ids: readonly string[]): Promise<void>;
  /** Done with the entry (sent or given up); `progressSaved` when saveProgress was called for it. */
  ack(entry: OutboxEntry, progressSaved: boolean): Promise<void>;
  progress(entry: OutboxEntry): Promise<number>;
  saveProgress(entry: OutboxEntry, chunksSent: number): Promise<void>;
  /** Forgets consumers (past gateway processes) that hold nothing and were idle longer than `idleMs`. */
  pruneConsumers(idleMs: number): Promise<number>;
}

export function isNoGroupError(err: unknown): boolean {
  return err instanceof Error && err.message.startsWith('NOGROUP');
}

export function createOutboxStream(
  redis: Redis,
  space: KeySpace,
  channelKey: string,
  partition: number,
  consumer: string,
  logger: Pick<Logger, 'warn'>,
): OutboxStream {
  const key = outboxStreamKeyOf(space, channelKey, partition);
  const progressKey = (id: string) => `${key}:progress:${id}`;
  const batch: { entry: OutboxEntry; done: () => void; fail: (e: unknown) => void }[] = [];

  async function flushAcks(): Promise<void> {
    const taken = batch.splice(0, MAX_ACK_BATCH);
    if (batch.length > 0) setImmediate(() => void flushAcks());
    // One mark per conversation: the highest sequence of the batch.
    const marks = new Map<string, number>();
    for (const { entry } of taken) {
      if (!entry.order) continue;
      const { conversation, seq } = entry.order;
      // Only a damaged entry names a conversation of another partition: its mark is not ours to move.
      if (partitionOfConversation(space, conversation) !== partition) {
        logger.warn({ key, conversation }, 'outbox entry of another partition; its last-sent mark is left');
        continue;
      }
      marks.set(conversation, Math.max(seq, marks.get(conversation) ?? 0));
    }
    try {
      await ackReplies(
        redis,
        [key, ...[...marks.keys()].map((c) => replySentKey(space, c))],
        [OUTBOX_GROUP, SENT_MARK_TTL_SECS, taken.length, ...taken.map((t) => t.entry.id), ...marks.values()],
      );
      for (const t of taken) t.done();
    } catch (err) {
      for (const t of taken) t.fail(err);
    }
  }

  return {
    async ensureGroup() {
      try {
        await redis.xgroup('CREATE', key, OUTBOX_GROUP, '0', 'MKSTREAM');
      } catch (err) {
        if (!(err instanceof Error && err.message.startsWith('BUSYGROUP'))) throw err;
      }
    },
    async read(reader, count, blockMs) {
      const res = (await reader.xreadgroup(
        'GROUP',
        OUTBOX_GROUP,
        consumer,
        'COUNT',
        count,
        'BLOCK',
        blockMs,
        'STREAMS',
        key,
        '>',
      )) as [string, RawOutboxEntry[]][] | null;
      const entries = res?.[0]?.[1] ?? [];
      return entries
        .map((e) => parseOutboxEntry(e, false, partition))
        .filter((e): e is OutboxEntry => e !== null);
    },
    async reclaim(minIdleMs, count) {
      const out: OutboxEntry[] = [];
      let cursor = '0-0';
      // The cursor walks the whole pending list, so a crashed gateway's backlog comes back in one pass.
      do {
        const batch = Math.min(128, count - out.length);
        const res = (await redis.xautoclaim(
          key,
          OUTBOX_GROUP,
          consumer,
          minIdleMs,
          cursor,
          'COUNT',
          batch,
        )) as [string, RawOutboxEntry[]];
        cursor = res[0];
        for (const raw of res[1] ?? []) {
          const entry = parseOutboxEntry(raw, true, partition);
          if (entry) out.push(entry);
        }
      } while (cursor !== '0-0' && out.length < count);
      return out;
    },
    async touch(ids) {
      if (ids.length > 0) await redis.xclaim(key, OUTBOX_GROUP, consumer, 0, ...ids, 'JUSTID');
    },
    async ack(entry, progressSaved) {
      await new Promise<void>((done, fail) => {
        if (batch.push({ entry, done, fail }) === 1) setImmediate(() => void flushAcks());
      });
      if (progressSaved || entry.reclaimed) await redis.del(progressKey(entry.id));
    },
    async progress(entry) {
      if (!entry.reclaimed) return 0;
      const k = progressKey(entry.id);
      // Unreadable (logged): sent again from its first chunk; a NaN here would drop the reply unsent.
      const ctx = { logger, key: k, what: 'reply progress' };
      return parseRecord(z.number().int().nonnegative(), await redis.get(k), ctx) ?? 0;
    },
    async saveProgress(entry, chunksSent) {
      await redis.set(progressKey(entry.id), chunksSent, 'EX', PROGRESS_TTL_SECS);
    },
    async pruneConsumers(idleMs) {
      const rows = (await redis.xinfo('CONSUMERS', key, OUTBOX_GROUP)) as unknown[][];
      let pruned = 0;
      for (const row of rows) {
        const info: Record<string, unknown> = {};
        for (let i = 0; i + 1 < row.length; i += 2) info[String(row[i])] = row[i + 1];
        const name = String(info.name);
        if (name === consumer || Number(info.pending) > 0 || Number(info.idle) < idleMs) continue;
        await redis.xgroup('DELCONSUMER', key, OUTBOX_GROUP, name);
        pruned++;
      }
      return pruned;
    },
  };
}
