// The one SCAN helper (core/redis-scan.ts) on a real Redis: every matching key once, small COUNTs included,
// nothing outside the pattern; hash-tagged key names match as plain text (braces are not glob syntax).
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { globalTag } from '../../../src/core/key-layout.ts';
import { isCluster, scanBatches, scanKeys } from '../../../src/core/redis-scan.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';

const prefix = uniquePrefix('redis-scan');
let redis: Redis;

beforeAll(async () => {
  redis = testRedis();
  const tag = globalTag(prefix, 'tasks');
  const m = redis.multi();
  for (let i = 0; i < 250; i++) m.set(`${tag}:task:${i}`, '1');
  for (let i = 0; i < 30; i++) m.set(`${prefix}:other:${i}`, '1');
  await m.exec();
});
afterAll(async () => {
  await deletePrefix(redis, prefix);
  redis.disconnect();
});

describe('scanKeys / scanBatches', () => {
  it('finds every key of a hash-tagged pattern once, and nothing else', async () => {
    const keys = await scanKeys(redis, `${globalTag(prefix, 'tasks')}:task:*`, 7);
    expect(keys).toHaveLength(250);
    expect(new Set(keys).size).toBe(250);
    expect(keys.every((k) => k.startsWith(`{${prefix}:tasks}:task:`))).toBe(true);
  });

  it('yields non-empty batches that together hold every key', async () => {
    const seen = new Set<string>();
    let batches = 0;
    for await (const batch of scanBatches(redis, `${prefix}:other:*`, 5)) {
      expect(batch.length).toBeGreaterThan(0);
      batches++;
      for (const k of batch) seen.add(k);
    }
    expect(seen.size).toBe(30);
    expect(batches).toBeGreaterThan(1);
  });

  it('a plain client is not a Cluster', () => {
    expect(isCluster(redis)).toBe(false);
  });
});
