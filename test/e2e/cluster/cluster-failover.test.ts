// The Cluster failover drill of issue 19 (spec/config.md §15.1.1): baton's gateway and two workers on a local Redis
// Cluster of 3 masters with a replica each, a burst of 500 messages over 10 conversations, a master SIGKILLed
// mid-burst. Its replica is promoted; every accepted message is answered, none twice, in order per conversation,
// and the fleet keeps answering new messages after the promotion.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectCleanFailover } from '../../helpers/failover-expect.ts';
import { type RedisCluster, startRedisCluster } from '../../helpers/redis-cluster.ts';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../../helpers/runtime-harness.ts';

let cluster: RedisCluster;
let h: RuntimeHarness;
beforeAll(async () => {
  cluster = await startRedisCluster({ replicas: true });
  h = await createRuntimeHarness('cluster-failover', runtimeToml(`[worker]\nconcurrency = 8\n`), {
    workers: 2,
    redisTarget: cluster.target,
  });
}, 90_000);
afterAll(async () => {
  await h?.close();
  await cluster?.close();
});

describe('Cluster failover drill', () => {
  it('loses no accepted message, answers none twice, keeps order, and answers after the promotion', async () => {
    await expectCleanFailover(h, cluster, 'cluster failover drill');
  }, 240_000);
});
