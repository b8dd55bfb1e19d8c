// Real-Redis helpers for tests: a connection and a unique key prefix per test file, removed afterwards.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
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

/** Deletes every key under `prefix:` or a `{prefix:…}` hash tag (core/key-layout.ts) (SCAN, never KEYS). */
export async function deletePrefix(redis: Redis, prefix: string): Promise<void> {
  for (const pattern of [`${prefix}:*`, `{${prefix}:*`]) {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  }
}
