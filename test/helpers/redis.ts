// Real-Redis helpers for tests: a connection and a unique key prefix per test file, removed afterwards.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createRedis } from '../../src/core/redis.ts';
import { isCluster, scanBatches } from '../../src/core/redis-scan.ts';
import type { RedisTarget } from '../../src/core/redis-target.ts';

export const REDIS_URL = process.env.BATON_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export function uniquePrefix(name: string): string {
  return `test-${name}-${randomBytes(4).toString('hex')}`;
}

export function testRedis(url = REDIS_URL): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: null });
  redis.on('error', () => {}); // reconnects on its own; tests that stop Redis expect errors here
  return redis;
}

/** A test connection through baton's own factory (a Sentinel target included). */
export function testRedisFor(target: RedisTarget): Redis {
  const redis = createRedis(target);
  redis.on('error', () => {});
  return redis;
}

/** The `[redis]` lines (without prefix) that point a config at `target`: url, sentinels or cluster nodes. */
export function redisTargetToml(target: RedisTarget): string {
  const lines = [`url = ${JSON.stringify(target.url)}`];
  if (target.sentinels?.length) {
    lines.push(`sentinels = ${JSON.stringify(target.sentinels)}`);
    lines.push(`sentinel_master = ${JSON.stringify(target.sentinel_master ?? '')}`);
  }
  if (target.cluster_nodes?.length) lines.push(`cluster_nodes = ${JSON.stringify(target.cluster_nodes)}`);
  return lines.join('\n');
}

/**
 * Deletes every key under `prefix:` or a `{prefix:…}` hash tag (core/key-layout.ts) (SCAN, never KEYS). On a
 * Cluster it scans each master (core/redis-scan.ts) and deletes key by key (a multi-key DEL must stay in one slot).
 */
export async function deletePrefix(redis: Redis, prefix: string): Promise<void> {
  const client: Redis = redis;
  const cluster = isCluster(redis); // not a type guard here: createRedis types a Cluster as Redis
  for (const pattern of [`${prefix}:*`, `{${prefix}:*`]) {
    for await (const keys of scanBatches(redis, pattern)) {
      if (cluster) await Promise.all(keys.map((k) => client.unlink(k)));
      else await redis.del(...keys);
    }
  }
}
