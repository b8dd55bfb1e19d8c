// A BullMQ queue on a local 3-master Redis Cluster through baton's one connection factory: the turns-queue form
// (a `{prefix:pN}` BullMQ prefix, so every key of the queue sits in one slot) runs jobs end to end, the
// control-plane client reaches every master, and closing the queue and worker leaves no client connected.
import { Queue, Worker } from 'bullmq';
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partitionTag, slotOf } from '../../../src/core/key-layout.ts';
import { connectRedis } from '../../../src/core/redis.ts';
import { queueOptions, workerOptions } from '../../../src/queue/connection.ts';
import { REDIS_URL, uniquePrefix } from '../../helpers/redis.ts';
import { type RedisCluster, startRedisCluster } from '../../helpers/redis-cluster.ts';
import { askPort } from '../../helpers/redis-server-process.ts';
import { waitFor } from '../../helpers/wait.ts';

let cluster: RedisCluster;
beforeAll(async () => {
  cluster = await startRedisCluster();
}, 90_000);
afterAll(async () => {
  await cluster?.close();
});

/** Clients connected to the cluster's nodes, other than the asking connection itself. */
async function connectedClients(): Promise<number> {
  let n = 0;
  for (const port of cluster.ports) {
    const list = String(await askPort(port, 'CLIENT', 'LIST'));
    n += list.trim().split('\n').length - 1;
  }
  return n;
}

describe('BullMQ on a Redis Cluster', () => {
  it('runs jobs through a {prefix:p0} queue, the keys in one slot, and closes every connection it opened', async () => {
    const prefix = partitionTag(uniquePrefix('cluster-q'), 0);
    const queue = new Queue('turns', queueOptions(cluster.target, prefix));
    const seen: number[] = [];
    const worker = new Worker(
      'turns',
      async (job) => {
        seen.push(job.data.n as number);
        return job.data.n * 2;
      },
      workerOptions(cluster.target, prefix, 4),
    );
    // Emitted with no listener, an error would end the file (not fail the test): collect and show them.
    const errors: string[] = [];
    queue.on('error', (e) => errors.push(`queue: ${e.message}`));
    worker.on('error', (e) => errors.push(`worker: ${e.message}`));
    for (let n = 0; n < 50; n++) await queue.add('conversation', { n }, { jobId: `job-${n}` });
    await waitFor(() => seen.length === 50, 30_000, '50 jobs run');
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, n) => n));
    const done = await queue.getJob('job-7');
    expect(done?.returnvalue).toBe(14);

    // Every key BullMQ wrote for the queue hashes to the tag's slot (else its Lua scripts would CROSSSLOT).
    const redis = await connectRedis(cluster.target);
    const keys: string[] = [];
    for (const node of (redis as unknown as Cluster).nodes('master')) {
      let cursor = '0';
      do {
        const [next, batch] = await node.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
        cursor = next;
        keys.push(...batch);
      } while (cursor !== '0');
    }
    expect(keys.length).toBeGreaterThan(3);
    expect(new Set(keys.map(slotOf))).toEqual(new Set([slotOf(prefix)]));
    for (const k of keys) await redis.del(k);
    redis.disconnect();

    await worker.close();
    await queue.close();
    expect(errors).toEqual([]);
    await waitFor(async () => (await connectedClients()) === 0, 10_000, 'no client left connected');
  }, 60_000);

  it('connectRedis names the cluster nodes and why the first one fails', async () => {
    const hint =
      'Check that the cluster nodes are up and agree (`redis-cli -c -h <host> -p <port> cluster info` shows cluster_state:ok).';
    const down = { url: 'redis://x', cluster_nodes: ['redis://127.0.0.1:1', 'redis://:pw@127.0.0.1:2'] };
    await expect(connectRedis(down, 1500)).rejects.toThrow(
      `Cannot reach Redis at Redis Cluster through redis://127.0.0.1:1, redis://:***@127.0.0.1:2 ([redis] cluster_nodes): connect ECONNREFUSED 127.0.0.1:1. ${hint}`,
    );
    // A plain Redis named as a cluster node (the shared test Redis has cluster support off).
    const plain = { url: 'redis://x', cluster_nodes: [REDIS_URL] };
    await expect(connectRedis(plain, 1500)).rejects.toThrow(
      `Cannot reach Redis at Redis Cluster through ${REDIS_URL} ([redis] cluster_nodes): ${new URL(REDIS_URL).host} answers "ERR This instance has cluster support disabled". ${hint}`,
    );
  });
});
