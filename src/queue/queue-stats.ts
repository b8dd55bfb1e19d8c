// Job counts per queue (turns, cron, delegate, each channel's outbox) for /healthz and /metrics. The turns queue
// and each outbox have one part per partition: their counts are the sums.

import { Queue } from 'bullmq';
import { allPartitions, type KeySpace } from '../core/key-layout.ts';
import { createRedis } from '../core/redis.ts';
import type { RedisTarget } from '../core/redis-target.ts';
import {
  CRON_QUEUE,
  DELEGATE_QUEUE,
  OUTBOX_GROUP,
  outboxQueueName,
  outboxStreamKeyOf,
  TURNS_QUEUE,
  turnsQueuePrefix,
} from './names.ts';
import { cronQueuePrefix, delegateQueuePrefix } from './queue-prefixes.ts';

export interface JobCounts {
  /** Runnable jobs not yet taken: BullMQ's `waiting` plus `prioritized`. */
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  completed: number;
}

export interface QueueStats {
  /** Keyed by queue name (`turns`, `cron`, `delegate`, `outbox-<type>-<alias>`). */
  counts(): Promise<Record<string, JobCounts>>;
  close(): Promise<void>;
}

export interface QueueStatsOptions {
  /** The `[redis]` target; one dedicated connection is shared by every queue handle. */
  target: RedisTarget;
  /** `[redis] prefix` (BullMQ's prefix of cron and delegate) and partitions (one turns queue each). */
  space: KeySpace;
  /** Channel keys whose outboxes are counted (the channels this deployment starts). */
  channelKeys: readonly string[];
}

/** The queue names counted for a deployment, in a stable order. */
export function countedQueueNames(channelKeys: readonly string[]): string[] {
  return [TURNS_QUEUE, CRON_QUEUE, DELEGATE_QUEUE, ...channelKeys.map(outboxQueueName)];
}

/** An outbox stream's entries: `active` are held by a gateway, the rest wait; sent ones are deleted. */
async function outboxCounts(redis: ReturnType<typeof createRedis>, key: string): Promise<JobCounts> {
  const [len, pending] = await Promise.all([
    redis.xlen(key),
    (redis.xpending(key, OUTBOX_GROUP) as Promise<unknown[]>).catch(() => [0]),
  ]);
  const active = Number(pending[0] ?? 0);
  return { waiting: Math.max(0, len - active), active, delayed: 0, failed: 0, completed: 0 };
}

export function createQueueStats(opts: QueueStatsOptions): QueueStats {
  const connection = createRedis(opts.target);
  connection.on('error', () => {}); // ioredis reconnects on its own; outages surface through counts()
  const { space } = opts;
  const open = (name: string, prefix: string) => {
    const queue = new Queue(name, { connection, prefix });
    queue.on('error', () => {}); // connection errors: counts() fails and /healthz says so
    return queue;
  };
  const queues = [
    ...allPartitions(space).map((n) => open(TURNS_QUEUE, turnsQueuePrefix(space, n))),
    open(CRON_QUEUE, cronQueuePrefix(space.prefix)),
    open(DELEGATE_QUEUE, delegateQueuePrefix(space.prefix)),
  ];
  const outboxes = opts.channelKeys.flatMap((k) =>
    allPartitions(space).map((n) => [outboxQueueName(k), outboxStreamKeyOf(space, k, n)] as const),
  );
  return {
    async counts() {
      // While disconnected, commands would wait for the reconnect; fail at once so /healthz stays quick.
      if (
        connection.status === 'reconnecting' ||
        connection.status === 'end' ||
        connection.status === 'close'
      ) {
        throw new Error(`queue connection is ${connection.status}`);
      }
      const entries = await Promise.all(
        queues.map(async (q) => {
          const c = await q.getJobCounts(
            'waiting',
            'prioritized',
            'active',
            'delayed',
            'failed',
            'completed',
          );
          const counts: JobCounts = {
            waiting: (c.waiting ?? 0) + (c.prioritized ?? 0),
            active: c.active ?? 0,
            delayed: c.delayed ?? 0,
            failed: c.failed ?? 0,
            completed: c.completed ?? 0,
          };
          return [q.name, counts] as const;
        }),
      );
      const streams = await Promise.all(
        outboxes.map(async ([name, key]) => [name, await outboxCounts(connection, key)] as const),
      );
      const out: Record<string, JobCounts> = {};
      for (const [name, c] of [...entries, ...streams]) {
        const sum = out[name];
        out[name] = sum
          ? {
              waiting: sum.waiting + c.waiting,
              active: sum.active + c.active,
              delayed: sum.delayed + c.delayed,
              failed: sum.failed + c.failed,
              completed: sum.completed + c.completed,
            }
          : c;
      }
      return out;
    },
    async close() {
      await Promise.all(queues.map((q) => q.close().catch(() => {})));
      connection.disconnect();
    },
  };
}
