// The baseline: a bare BullMQ queue and no-op worker on the same Redis, add→completed and jobs/s.
import { randomBytes } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { deletePrefix } from '../helpers/redis.ts';
import { percentile } from './stats.ts';

export interface RawFigures {
  p50Ms: number;
  p99Ms: number;
  jobsPerSec: number;
}

export async function measureRawBullmq(
  url: string,
  opts: { latencyJobs: number; throughputJobs: number; concurrency: number; warmUpJobs?: number },
): Promise<RawFigures> {
  const prefix = `bench-raw-${randomBytes(3).toString('hex')}`;
  const conn = () => new Redis(url, { maxRetriesPerRequest: null });
  const queue = new Queue('raw', { connection: conn(), prefix });
  let onDone: (() => void) | null = null;
  const worker = new Worker('raw', async () => {}, {
    connection: conn(),
    prefix,
    concurrency: opts.concurrency,
  });
  worker.on('completed', () => onDone?.());
  await worker.waitUntilReady();

  const latencies: number[] = [];
  const warmUp = opts.warmUpJobs ?? 0; // add→completed round trips first, not measured
  for (let i = 0; i < warmUp + opts.latencyJobs; i++) {
    const t0 = performance.now();
    const done = new Promise<void>((resolve) => {
      onDone = resolve;
    });
    await queue.add('j', { i }, { removeOnComplete: true });
    await done;
    if (i >= warmUp) latencies.push(performance.now() - t0);
  }

  let left = opts.throughputJobs;
  const all = new Promise<void>((resolve) => {
    onDone = () => {
      if (--left === 0) resolve();
    };
  });
  const t0 = performance.now();
  const batch = Array.from({ length: opts.throughputJobs }, (_, i) => ({
    name: 'j',
    data: { i },
    opts: { removeOnComplete: true },
  }));
  for (let i = 0; i < batch.length; i += 500) await queue.addBulk(batch.slice(i, i + 500));
  await all;
  const secs = (performance.now() - t0) / 1000;

  await worker.close();
  await queue.close();
  const admin = conn();
  await deletePrefix(admin, prefix);
  await admin.quit();
  return {
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    jobsPerSec: opts.throughputJobs / secs,
  };
}
