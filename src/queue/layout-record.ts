// The recorded key layout (spec/config.md §15.1 `partitions`): the partition count in use is stored in Redis on
// first start. A process whose config names another count refuses to start while the old partitions still hold
// work (their conversations would be split over two queues, and their order lost); once they are empty the record
// is rewritten. A Redis with no record but work in the untagged keys of a release before partitions is refused too.
// Work is what the turns queues, the busy sets and the outbox streams still hold (those of the channels the config
// names, and any other found by a SCAN of every master), and for the release before partitions also its delegate
// and cron queues, background tasks and approvals.
import type { Redis } from 'ioredis';
import { allPartitions, globalTag, type KeySpace } from '../core/key-layout.ts';
import type { Logger } from '../core/logger.ts';
import { scanKeys } from '../core/redis-scan.ts';
import {
  type LayoutWork,
  layoutRecordRewritten,
  layoutRecordWritten,
  legacyLayoutWithWork,
  partitionsChangedWithWork,
  unreadableLayoutRecord,
} from './layout-messages.ts';
import { legacyGlobalWork } from './legacy-global-work.ts';
import {
  inboxActiveKey,
  outboxQueueName,
  outboxStreamKeyOf,
  TURNS_QUEUE,
  turnsQueuePrefix,
} from './names.ts';

/** The record: a hash with `partitions` and `updated_at`, alone under its own tag. */
export const layoutRecordKey = (prefix: string): string => globalTag(prefix, 'layout');

/** Thrown when this process must not start on this Redis; the message is the operator's text. */
export class LayoutMismatchError extends Error {
  override readonly name = 'LayoutMismatchError';
}

/** Where one layout keeps its work: a turns queue's BullMQ prefix, its busy set, and its outbox streams. */
interface WorkKeys {
  queuePrefix: string;
  active: string;
  outboxes: string[];
}

/**
 * Outbox streams matching `pattern` beyond `known`: a channel the config no longer names may still hold replies.
 * A stream's name ends in `outbox-<channel>` (no `:` after it; its progress keys have one).
 */
async function otherOutboxes(redis: Redis, pattern: string, known: readonly WorkKeys[]): Promise<string[]> {
  const seen = new Set(known.flatMap((p) => p.outboxes));
  const found = await scanKeys(redis, pattern);
  return found.filter((k) => !seen.has(k) && !k.slice(k.lastIndexOf(':outbox-') + 1).includes(':'));
}

async function countWork(redis: Redis, parts: readonly WorkKeys[], pattern: string): Promise<LayoutWork> {
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  // Each found stream is read alone (one slot per command); a key of another type there is not ours: 0.
  const others = await otherOutboxes(redis, pattern, parts);
  const stray = await Promise.all(others.map((k) => redis.xlen(k).catch(() => 0)));
  const per = await Promise.all(
    parts.map(async (p) => {
      // BullMQ's own lists and sorted sets of the queue: jobs not yet finished.
      const q = `${p.queuePrefix}:${TURNS_QUEUE}`;
      const [wait, active, paused, delayed, prioritized, conversations, ...outboxes] = await Promise.all([
        redis.llen(`${q}:wait`),
        redis.llen(`${q}:active`),
        redis.llen(`${q}:paused`),
        redis.zcard(`${q}:delayed`),
        redis.zcard(`${q}:prioritized`),
        redis.scard(p.active),
        // Sent entries are deleted from the stream, so its length is what is still to send.
        ...p.outboxes.map((k) => redis.xlen(k)),
      ]);
      return { turns: wait + active + paused + delayed + prioritized, conversations, replies: sum(outboxes) };
    }),
  );
  return {
    turns: sum(per.map((w) => w.turns)),
    conversations: sum(per.map((w) => w.conversations)),
    replies: sum(per.map((w) => w.replies)) + sum(stray),
  };
}

const hasWork = (w: LayoutWork) => w.turns + w.conversations + w.replies > 0;

/** The partitioned layout's work keys (`channelKeys`: every channel the config names, enabled or not). */
const partitionedKeys = (space: KeySpace, channelKeys: readonly string[]): WorkKeys[] =>
  allPartitions(space).map((n) => ({
    queuePrefix: turnsQueuePrefix(space, n),
    active: inboxActiveKey(space, n),
    outboxes: channelKeys.map((k) => outboxStreamKeyOf(space, k, n)),
  }));

/** The untagged keys of a release before partitions: `<prefix>:turns:*`, `<prefix>:inbox-active`, outboxes. */
const legacyKeys = (prefix: string, channelKeys: readonly string[]): WorkKeys[] => [
  {
    queuePrefix: prefix,
    active: `${prefix}:inbox-active`,
    outboxes: channelKeys.map((k) => `${prefix}:${outboxQueueName(k)}`),
  },
];

/**
 * Checks `space.partitions` against the record and writes or rewrites it; throws LayoutMismatchError when this
 * process must not start. Returns what it did, for the tests and the startup log.
 */
export async function checkKeyLayout(
  redis: Redis,
  space: KeySpace,
  channelKeys: readonly string[],
  logger: Pick<Logger, 'info' | 'warn'>,
): Promise<'same' | 'written' | 'rewritten'> {
  const key = layoutRecordKey(space.prefix);
  const write = () =>
    redis.hset(key, 'partitions', String(space.partitions), 'updated_at', new Date().toISOString());
  const raw = await redis.hget(key, 'partitions');
  if (raw === null) {
    const [legacy, other] = await Promise.all([
      countWork(redis, legacyKeys(space.prefix, channelKeys), `${space.prefix}:outbox-*`),
      legacyGlobalWork(redis, space.prefix),
    ]);
    if (hasWork(legacy) || other.length > 0) {
      throw new LayoutMismatchError(legacyLayoutWithWork(space.prefix, space.partitions, legacy, other));
    }
    await write();
    logger.info({ key, partitions: space.partitions }, layoutRecordWritten);
    return 'written';
  }
  const recorded = Number(raw);
  if (!/^\d+$/.test(raw) || recorded < 1 || recorded > 256) {
    throw new LayoutMismatchError(unreadableLayoutRecord(key, raw));
  }
  if (recorded === space.partitions) return 'same';
  const recordedSpace = { prefix: space.prefix, partitions: recorded };
  const old = await countWork(
    redis,
    partitionedKeys(recordedSpace, channelKeys),
    `{${space.prefix}:p*}:outbox-*`,
  );
  if (hasWork(old)) {
    throw new LayoutMismatchError(partitionsChangedWithWork(space.prefix, space.partitions, recorded, old));
  }
  await write();
  logger.warn({ key, from: recorded, to: space.partitions }, layoutRecordRewritten);
  return 'rewritten';
}
