// BullMQ connection options: the shared ioredis settings and the deployment's key prefix.
import type { ConnectionOptions, QueueOptions, WorkerOptions } from 'bullmq';

/**
 * Options rather than a client: BullMQ then creates and, on close, ends its own connections (a client
 * passed in is never closed by BullMQ and would keep the process alive). `maxRetriesPerRequest: null`
 * makes commands wait through a Redis outage instead of failing.
 */
export function queueConnection(url: string): ConnectionOptions {
  return { url, maxRetriesPerRequest: null };
}

export function queueOptions(url: string, prefix: string): QueueOptions {
  return { connection: queueConnection(url), prefix };
}

export function workerOptions(url: string, prefix: string, concurrency: number): WorkerOptions {
  return { connection: queueConnection(url), prefix, concurrency };
}
