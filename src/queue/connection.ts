// BullMQ connection options: the shared ioredis settings and the deployment's key prefix.
import type { ConnectionOptions, QueueOptions, WorkerOptions } from 'bullmq';
import { createRedis } from '../core/redis.ts';

/** A dedicated connection per Queue/Worker; BullMQ needs `maxRetriesPerRequest: null` (see createRedis). */
export function queueConnection(url: string): ConnectionOptions {
  const redis = createRedis(url);
  redis.on('error', () => {}); // ioredis reconnects on its own; outages surface through /healthz
  return redis;
}

export function queueOptions(url: string, prefix: string): QueueOptions {
  return { connection: queueConnection(url), prefix };
}

export function workerOptions(url: string, prefix: string, concurrency: number): WorkerOptions {
  return { connection: queueConnection(url), prefix, concurrency };
}
