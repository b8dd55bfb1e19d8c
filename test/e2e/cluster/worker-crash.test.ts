// The worker crash drill on a local 3-master Redis Cluster (issue 19): `baton worker` processes connected through
// [redis] cluster_nodes, one SIGKILLed mid-burst and restarted; every message answered exactly once, in order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeConversations } from '../../helpers/key-space.ts';
import { type RedisCluster, startRedisCluster } from '../../helpers/redis-cluster.ts';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../../helpers/runtime-harness.ts';
import { type WorkerCrashDrill, workerCrashDrill } from '../../helpers/worker-crash-drill.ts';

const CHATS = 50;
const PER_CHAT = 10;

let cluster: RedisCluster;
let h: RuntimeHarness;
let drill: WorkerCrashDrill;

beforeAll(async () => {
  cluster = await startRedisCluster();
  h = await createRuntimeHarness('cluster-crash', runtimeToml(`[worker]\nconcurrency = 16\n`), {
    workers: 0,
    redisTarget: cluster.target,
  });
  drill = workerCrashDrill(h, { chats: CHATS, perChat: PER_CHAT, killAfter: 100 });
}, 90_000);

afterAll(async () => {
  for (const w of drill?.workers ?? []) w.kill('SIGKILL');
  await Promise.all((drill?.workers ?? []).map((w) => w.exited));
  await h?.close();
  await cluster?.close();
});

describe('a worker killed mid-run, on a Redis Cluster', () => {
  it('loses no message and duplicates no reply (500 messages, SIGKILL and restart)', async () => {
    await drill.run();
    for (let c = 0; c < CHATS; c++) expect(drill.repliesOf(c)).toEqual(drill.expectedOf(c));
    // Nothing more arrives once the queues are drained (every partition's busy set, on every master).
    expect(await activeConversations(h.redis, h.space)).toEqual([]);
    expect(h.local.replies).toHaveLength(CHATS * PER_CHAT);
  }, 150_000);
});
