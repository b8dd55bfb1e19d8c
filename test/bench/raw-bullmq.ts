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

export interface RawBullmq {
  /** `n` add→completed round trips, one after another, ms each. */
  sample(n: number): Promise<number[]>;
  /** `n` jobs added at once (in batches of 500); jobs/s until the last completed. */
  throughput(n: number): Promise<number>;
  close(): Promise<void>;
}

export async function startRawBullmq(url: string, concurrency: number): Promise<RawBullmq> {
  const prefix = `bench-raw-${randomBytes(3).toString('hex')}`;
  const conn = () => new Redis(url, { maxRetriesPerRequest: null });
  const queue = new Queue('raw', { connection: conn(), prefix });
  let onDone: (() => void) | null = null;
  const worker = new Worker('raw', async () => {}, { connection: conn(), prefix, concurrency });
  worker.on('completed', () => onDone?.());
  await worker.waitUntilReady();
  let i = 0;
  return {
    async sample(n) {
      const out: number[] = [];
      for (let k = 0; k < n; k++) {
        const t0 = performance.now();
        const done = new Promise<void>((resolve) => {
          onDone = resolve;
        });
        await queue.add('j', { i: i++ }, { removeOnComplete: true });
        await done;
        out.push(performance.now() - t0);
      }
      return out;
    },
    async throughput(n) {
      let left = n;
      const all = new Promise<void>((resolve) => {
        onDone = () => {
          if (--left === 0) resolve();
        };
      });
      const t0 = performance.now();
      const batch = Array.from({ length: n }, (_, k) => ({
        name: 'j',
        data: { i: k },
        opts: { removeOnComplete: true },
      }));
      for (let k = 0; k < batch.length; k += 500) await queue.addBulk(batch.slice(k, k + 500));
      await all;
      return n / ((performance.now() - t0) / 1000);
    },
    async close() {
      await worker.close();
      await queue.close();
      const admin = conn();
      await deletePrefix(admin, prefix);
      await admin.quit();
    },
  };
}

export async function measureRawBullmq(
  url: string,
  opts: { latencyJobs: number; throughputJobs: number; concurrency: number; warmUpJobs?: number },
): Promise<RawFigures> {
  const raw = await startRawBullmq(url, opts.concurrency);
  try {
    await raw.sample(opts.warmUpJobs ?? 0); // round trips first, not measured
    const latencies = await raw.sample(opts.latencyJobs);
    const jobsPerSec = await raw.throughput(opts.throughputJobs);
    return { p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), jobsPerSec };
  } finally {
    await raw.close();
  }
}
