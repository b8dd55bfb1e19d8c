// Job counts per queue (turns, cron, delegate, each channel's outbox) for /healthz and /metrics.

import { Queue } from 'bullmq';
import { createRedis } from '../core/redis.ts';
import type { RedisTarget } from '../core/redis-target.ts';
import {
  CRON_QUEUE,
  DELEGATE_QUEUE,
  OUTBOX_GROUP,
  outboxQueueName,
  outboxStreamKey,
  TURNS_QUEUE,
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
  /** `[redis] prefix`, which is also BullMQ's prefix. */
  prefix: string;
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
  const queuePrefix: Record<string, string> = {
    [TURNS_QUEUE]: opts.prefix,
    [CRON_QUEUE]: cronQueuePrefix(opts.prefix),
    [DELEGATE_QUEUE]: delegateQueuePrefix(opts.prefix),
  };
  const queues = [TURNS_QUEUE, CRON_QUEUE, DELEGATE_QUEUE].map((name) => {
    const queue = new Queue(name, { connection, prefix: queuePrefix[name] ?? opts.prefix });
    queue.on('error', () => {}); // connection errors: counts() fails and /healthz says so
    return queue;
  });
  const outboxes = opts.channelKeys.map(
    (k) => [outboxQueueName(k), outboxStreamKey(opts.prefix, k)] as const,
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
      return Object.fromEntries([...entries, ...streams]);
    },
    async close() {
      await Promise.all(queues.map((q) => q.close().catch(() => {})));
      connection.disconnect();
    },
  };
}
