// The turn worker's fetch after a wait (queue/gated-worker.ts): when the job it took was the only one, it clears
// the marker BullMQ set for the jobs behind it and waits, instead of fetching again at once and waking for
// nothing (two moveToActive scripts and a blocking wait per job). Jobs that are behind it are still taken at once.
import { type Job, Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerOptions } from '../../../src/queue/connection.ts';
import { GatedWorker, SlotGate } from '../../../src/queue/gated-worker.ts';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { type MonitoredCommand, monitorRedis, type RedisMonitor } from '../../helpers/redis-monitor.ts';
import { waitFor } from '../../helpers/wait.ts';

const redis = testRedis();
const prefix = uniquePrefix('idle-marker');
// Tagged, as the turns queues are: the check's keys share a slot (a Cluster, and every test, insist).
const queuePrefix = `{${prefix}:q}`;
const seen: MonitoredCommand[] = [];
let monitor: RedisMonitor;
beforeAll(async () => {
  monitor = await monitorRedis(redis, (c) => {
    if (c.args.some((a) => a.startsWith(queuePrefix))) seen.push(c);
  });
});
afterAll(async () => {
  monitor.stop();
  await deletePrefix(redis, prefix);
  await redis.quit();
});

/**
 * A worker of `concurrency` on its own queue, and that queue. A wait for the marker blocks 30 s (drainDelay):
 * a job whose wake-up was lost would sit there past any test's timeout.
 */
function start(name: string, concurrency: number, process: (job: Job) => Promise<void>) {
  const opts = { ...workerOptions({ url: REDIS_URL }, queuePrefix, concurrency), drainDelay: 30 };
  const worker = new GatedWorker(name, process, opts, new SlotGate(concurrency));
  const queue = new Queue(name, { connection: opts.connection, prefix: queuePrefix });
  return { worker, queue, close: () => Promise.all([worker.close(), queue.close()]) };
}

/** The queue's moveToActive scripts (11 keys, its wait list first) sent from `from` on in `seen`. */
const moveToActives = (name: string, from: number) =>
  seen
    .slice(from)
    .filter(
      (c) =>
        c.args[0]?.startsWith('eval') && c.args[2] === '11' && c.args[3] === `${queuePrefix}:${name}:wait`,
    ).length;

describe('the fetch after a wait', () => {
  it('takes a lone job with one moveToActive, then waits without waking for nothing', async () => {
    const done: string[] = [];
    const q = start('lone', 4, async (job) => {
      done.push(String(job.data.n));
    });
    try {
      await waitFor(() => seen.some((c) => c.args[0] === 'bzpopmin'), 5000, 'the worker to wait');
      const from = seen.length;
      for (let n = 0; n < 5; n++) {
        await q.queue.add('j', { n });
        await waitFor(() => done.length === n + 1, 5000, `job ${n}`);
      }
      // Each job: the wake-up, its moveToActive, the check that nothing is behind it, the wait. BullMQ alone
      // sends three moveToActive scripts per job here (the job, an immediate empty fetch, and one more after its
      // own marker woke the wait).
      await waitFor(
        () => seen.slice(from).filter((c) => c.args[0] === 'bzpopmin').length >= 5,
        5000,
        'the wait after the last job',
      );
      expect(moveToActives('lone', from)).toBe(5);
      expect(await redis.zscore(`${queuePrefix}:lone:marker`, '0')).toBeNull();
    } finally {
      await q.close();
    }
  });

  it('loses no wake-up when each job is added as the one before it finishes', async () => {
    // The add races the previous job's completion (BullMQ's fetch-next on completion marks the worker drained,
    // sometimes after the lone job's check): no job may then wait for the 30 s block.
    const n = 300;
    let done = 0;
    let q: ReturnType<typeof start> | undefined;
    q = start('racing', 4, async (job) => {
      done++;
      const next = Number(job.data.n) + 1;
      if (next < n) setImmediate(() => void q?.queue.add('j', { n: next }));
    });
    try {
      await q.queue.add('j', { n: 0 });
      await waitFor(() => done === n, 20_000, `${n} jobs, each added as the one before it finished`);
    } finally {
      await q.close();
    }
  });

  it('still takes the jobs behind the first one at once', async () => {
    const started: number[] = [];
    let release!: () => void;
    const barrier = new Promise<void>((r) => {
      release = r;
    });
    const q = start('behind', 3, async (job) => {
      started.push(Number(job.data.n));
      await barrier;
    });
    try {
      await waitFor(
        () => seen.some((c) => c.args.includes(`${queuePrefix}:behind:marker`)),
        5000,
        'the worker to wait',
      );
      await q.queue.addBulk([0, 1, 2].map((n) => ({ name: 'j', data: { n } })));
      await waitFor(() => started.length === 3, 10_000, 'all three jobs running together');
      expect(started.sort()).toEqual([0, 1, 2]);
      release();
      // And a job added after they finished wakes the worker as before.
      await q.queue.add('j', { n: 3 });
      await waitFor(() => started.length === 4, 10_000, 'the job added afterwards');
    } finally {
      release();
      await q.close();
    }
  });
});
