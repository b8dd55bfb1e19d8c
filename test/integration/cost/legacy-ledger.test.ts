// Spend recorded under the old key layout (`<prefix>:cost:*`) still counts after the upgrade to hash-tagged keys:
// a starting worker moves it into the ledger, once, even when two workers start together.
import type { Redis } from 'ioredis';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { costKeys, createCostLedger } from '../../../src/cost/ledger.ts';
import { carryLegacyCost } from '../../../src/cost/legacy-ledger.ts';
import { utcPeriods } from '../../../src/cost/pricing.ts';
import { capturingLogger } from '../../helpers/providers.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';

const prefix = uniquePrefix('cost-legacy');
const redis: Redis = testRedis();
const now = new Date();
const { day, month } = utcPeriods(now);
/** The old layout's names, as the release before the hash-tagged layout wrote them. */
const old = {
  day: `${prefix}:cost:day:${day}`,
  month: `${prefix}:cost:month:${month}`,
  agent: `${prefix}:cost:agent:${day}:main`,
  descendants: `${prefix}:cost:descendants:${day}:main`,
  tokens: `${prefix}:cost:tokens:${day}`,
  warned: `${prefix}:cost:warned:day:${day}`,
};

async function seedOldLayout(): Promise<void> {
  await redis.set(old.day, '700', 'EX', 3600);
  await redis.set(old.month, '9000', 'EX', 7200);
  await redis.set(old.agent, '500', 'EX', 3600);
  await redis.set(old.descendants, '200', 'EX', 3600);
  await redis.hset(old.tokens, 'main:input', '11', 'main:output', '4');
  await redis.set(old.warned, '1', 'EX', 3600);
}

beforeEach(() => deletePrefix(redis, prefix));
afterAll(async () => {
  await deletePrefix(redis, prefix);
  redis.disconnect();
});

describe('carrying the old layout cost ledger', () => {
  it('adds old spend to the new totals, keeps TTLs and markers, and removes the old keys', async () => {
    await seedOldLayout();
    const ledger = createCostLedger(redis, prefix, createSilentLogger());
    // A worker of the new layout already recorded some spend today.
    await ledger.record({ alias: 'main', ancestors: [], perAgent: true, microUsd: 30, now });
    const log = capturingLogger();
    expect(await carryLegacyCost(redis, prefix, log.logger)).toEqual({ keys: 6 });
    expect(log.lines.join('')).toContain(
      'cost ledger: spend recorded before the hash-tagged key layout carried over',
    );

    const read = await ledger.read(['main'], now);
    expect(read).toEqual({
      day: 730,
      month: 9030,
      agents: new Map([['main', { own: 530, descendants: 200 }]]),
    });
    const k = costKeys(prefix, now);
    expect(await redis.hgetall(k.tokens)).toEqual({ 'main:input': '11', 'main:output': '4' });
    expect(await redis.get(k.warned.day)).toBe('1');
    expect(await redis.pttl(k.month)).toBeGreaterThan(0);
    expect(await redis.exists(...Object.values(old))).toBe(0);
  });

  it('two workers starting together carry each old key once', async () => {
    await seedOldLayout();
    const silent = createSilentLogger();
    const [a, b] = await Promise.all([
      carryLegacyCost(redis, prefix, silent),
      carryLegacyCost(redis, prefix, silent),
    ]);
    expect(a.keys + b.keys).toBe(6);
    const read = await createCostLedger(redis, prefix, silent).read(['main'], now);
    expect({ day: read.day, month: read.month }).toEqual({ day: 700, month: 9000 });
  });

  it('a damaged old counter stays damaged (fail closed), and nothing is logged without old keys', async () => {
    await redis.set(old.day, 'garbage', 'EX', 3600);
    const silent = createSilentLogger();
    expect(await carryLegacyCost(redis, prefix, silent)).toEqual({ keys: 1 });
    expect((await createCostLedger(redis, prefix, silent).read([], now)).day).toBe(Number.POSITIVE_INFINITY);
    const log = capturingLogger();
    expect(await carryLegacyCost(redis, prefix, log.logger)).toEqual({ keys: 0 });
    expect(log.lines).toEqual([]);
  });
});
