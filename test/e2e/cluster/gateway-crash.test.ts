// The gateway crash drill on a local 3-master Redis Cluster (issue 19): a gateway process SIGKILLed mid-send,
// another takes its replies over; nothing lost, each conversation in order, only a cut-off send repeats.

import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  expectCleanTakeover,
  type GatewayCrashDrill,
  gatewayCrashDrill,
} from '../../helpers/gateway-crash-drill.ts';
import { spaceOf } from '../../helpers/key-space.ts';
import { deletePrefix, testRedisFor, uniquePrefix } from '../../helpers/redis.ts';
import { type RedisCluster, startRedisCluster } from '../../helpers/redis-cluster.ts';

const CHATS = 10;
const PER_CHAT = 30;
const prefix = uniquePrefix('cluster-gw-crash');
let cluster: RedisCluster;
let redis: Redis;
let drill: GatewayCrashDrill;

beforeAll(async () => {
  cluster = await startRedisCluster();
  redis = testRedisFor(cluster.target);
  drill = gatewayCrashDrill(redis, cluster.target, spaceOf(prefix, 16), { chats: CHATS, perChat: PER_CHAT });
}, 90_000);

afterAll(async () => {
  for (const c of drill?.children ?? []) c.kill('SIGKILL');
  if (redis) {
    await deletePrefix(redis, prefix);
    redis.disconnect();
  }
  await cluster?.close();
});

describe('a gateway killed mid-send, on a Redis Cluster', () => {
  it('loses no reply and keeps each conversation in order when another gateway takes over', async () => {
    const got = await drill.run();
    expectCleanTakeover(got, CHATS, PER_CHAT);
    for (const c of drill.children) c.kill('SIGTERM');
  }, 90_000);
});
