// Real-Redis helpers for tests: a connection and a unique key prefix per test file, removed afterwards.
import { randomBytes } from 'node:crypto';
import { Cluster, Redis } from 'ioredis';
import { createRedis } from '../../src/core/redis.ts';
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

/** The clients whose SCAN sees every key: the masters of a Cluster, else the client itself. */
const scanned = (redis: Redis): Redis[] => {
  const client: unknown = redis; // createRedis types a Cluster as Redis (core/redis.ts)
  return client instanceof Cluster ? client.nodes('master') : [redis];
};

/**
 * Deletes every key under `prefix:` or a `{prefix:…}` hash tag (core/key-layout.ts) (SCAN, never KEYS). On a
 * Cluster it scans each master and deletes key by key (a multi-key DEL must stay in one slot).
 */
export async function deletePrefix(redis: Redis, prefix: string): Promise<void> {
  for (const node of scanned(redis)) {
    for (const pattern of [`${prefix}:*`, `{${prefix}:*`]) {
      let cursor = '0';
      do {
        const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
        cursor = next;
        if (keys.length === 0) continue;
        if (node === redis) await redis.del(...keys);
        else await Promise.all(keys.map((k) => redis.unlink(k)));
      } while (cursor !== '0');
    }
  }
}
