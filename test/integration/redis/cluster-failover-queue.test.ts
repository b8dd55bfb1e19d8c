// The Cluster client through a failover, below baton's key layout: a BullMQ queue on one `{prefix:p0}` slot, jobs
// added steadily while the master serving that slot is SIGKILLed; its replica is promoted. Every add resolves
// (commands retry through the failover instead of failing: core/redis.ts CLUSTER_RETRY), every job added runs,
// and the same clients keep working after the promotion.
import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partitionTag, slotOf } from '../../../src/core/key-layout.ts';
import { queueOptions, workerOptions } from '../../../src/queue/connection.ts';
import { uniquePrefix } from '../../helpers/redis.ts';
import { type RedisCluster, startRedisCluster } from '../../helpers/redis-cluster.ts';
import { waitFor } from '../../helpers/wait.ts';

let cluster: RedisCluster;
beforeAll(async () => {
  cluster = await startRedisCluster({ replicas: true });
}, 90_000);
afterAll(async () => {
  await cluster?.close();
});

describe('BullMQ on a Redis Cluster through a failover', () => {
  it('adds and runs every job while the slot master dies and its replica takes over', async () => {
    const prefix = partitionTag(uniquePrefix('cluster-fo'), 0);
    const queue = new Queue('turns', queueOptions(cluster.target, prefix));
    const seen = new Map<number, number>();
    const worker = new Worker(
      'turns',
      async (job) => {
        seen.set(job.data.n, (seen.get(job.data.n) ?? 0) + 1);
      },
      { ...workerOptions(cluster.target, prefix, 8), stalledInterval: 1000, lockDuration: 2000 },
    );
    const errors: string[] = [];
    queue.on('error', (e) => errors.push(`queue: ${e.message}`));
    worker.on('error', (e) => errors.push(`worker: ${e.message}`));
    const victim = await cluster.masterOf(slotOf(prefix));
    const started = Date.now();
    let killedAt = 0;
    for (let n = 0; n < 300; n++) {
      if (n === 100) {
        await cluster.killMaster(victim);
        killedAt = Date.now();
      }
      await queue.add('conversation', { n }, { jobId: `job-${n}` });
      await new Promise((r) => setTimeout(r, 5));
    }
    await cluster.waitForPromotion(60_000);
    await waitFor(() => seen.size === 300, 60_000, 'every job run').catch(() => {});
    const missing = Array.from({ length: 300 }, (_, n) => n).filter((n) => !seen.has(n));
    const twice = [...seen].filter(([, c]) => c > 1).map(([n]) => n);
    console.log(
      `cluster queue failover: killed ${victim} after ${killedAt - started} ms; ${seen.size}/300 run, ` +
        `missing ${missing.length}, twice ${twice.length}, client errors ${errors.length}`,
    );
    // The worker's blocking connection fails fast through the failover (queue/connection.ts) and says so.
    if (errors.length) console.log(`client errors: ${[...new Set(errors)].join('; ')}`);
    expect(missing).toEqual([]);
    // After the promotion the same clients go on.
    await queue.add('conversation', { n: 300 }, { jobId: 'job-300' });
    await waitFor(() => seen.has(300), 30_000, 'a job after the promotion');
    await worker.close();
    await queue.close();
  }, 180_000);
});
