// The slot check every test runs with (vitest.config.ts): a script call whose keys span two hash slots is
// refused before it reaches Redis, as a Redis Cluster would refuse it; keys under one tag run.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CrossSlotError, globalTag } from '../../../src/core/key-layout.ts';
import { loadRedisScript } from '../../../src/core/redis-script.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';

const redis = testRedis();
const prefix = uniquePrefix('slot-check');

afterAll(async () => {
  await deletePrefix(redis, prefix);
  redis.disconnect();
});

describe('script slot check', () => {
  const dir = mkdtempSync(join(tmpdir(), 'slot-check-'));
  writeFileSync(
    join(dir, 'pair-2.lua'),
    "redis.call('SET', KEYS[1], '1') redis.call('SET', KEYS[2], '2') return 1\n",
  );
  const pair = loadRedisScript(join(dir, 'pair-2.lua'));

  it('is on in the test suite', () => {
    expect(process.env.BATON_SLOT_CHECK).toBe('1');
  });

  it('runs a script whose keys share a tag', async () => {
    const tag = globalTag(prefix, 'x');
    await expect(pair(redis, [`${tag}:a`, `${tag}:b`], [])).resolves.toBe(1);
    expect(await redis.get(`${tag}:b`)).toBe('2');
  });

  it('refuses keys in two slots before Redis sees them, naming the script and the keys', async () => {
    const a = `${globalTag(prefix, 'x')}:a`;
    const b = `${globalTag(prefix, 'y')}:b`;
    const err = await pair(redis, [a, b], []).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CrossSlotError);
    expect((err as Error).message).toContain('pair-2.lua: keys in more than one hash slot');
    expect((err as Error).message).toContain(b);
    expect(await redis.exists(b)).toBe(0);
  });
});
