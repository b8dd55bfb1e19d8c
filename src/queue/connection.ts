// BullMQ connection options: the shared ioredis settings and the deployment's key prefix.
import type { ConnectionOptions, QueueOptions, WorkerOptions } from 'bullmq';
import { connectionOf, type RedisTarget } from '../core/redis-target.ts';

/**
 * Options rather than a client: BullMQ then creates and, on close, ends its own connections (a client
 * passed in is never closed by BullMQ and would keep the process alive). `maxRetriesPerRequest: null`
 * makes commands wait through a Redis outage instead of failing. A Sentinel target gives ioredis's
 * `sentinels` + `name` options (core/redis-target.ts).
 */
export function queueConnection(target: RedisTarget): ConnectionOptions {
  const { url, options } = connectionOf(target);
  return { ...(url === undefined ? {} : { url }), ...options, maxRetriesPerRequest: null };
}

export function queueOptions(target: RedisTarget, prefix: string): QueueOptions {
  return { connection: queueConnection(target), prefix };
}

export function workerOptions(target: RedisTarget, prefix: string, concurrency: number): WorkerOptions {
  return { connection: queueConnection(target), prefix, concurrency };
}
