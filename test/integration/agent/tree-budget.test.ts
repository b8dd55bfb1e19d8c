import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTreeBudget, treeBudgetKey } from '../../../src/delegation/tree-budget.ts';
import { runScript } from '../../helpers/processes.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';

const redis = testRedis();
const prefix = uniquePrefix('tree-budget');
const budget = createTreeBudget(redis, prefix);

afterAll(async () => {
  await deletePrefix(redis, prefix);
  await redis.quit();
});

describe('execution-tree budget (subagents.md §8)', () => {
  it('children reserve only while more than one slot remains; the root takes the last one', async () => {
    await budget.create('r1', 3);
    expect(await budget.reserveChild('r1')).toBe(true); // 3 → 2
    expect(await budget.reserveChild('r1')).toBe(true); // 2 → 1
    expect(await budget.reserveChild('r1')).toBe(false); // 1 left: children stop
    expect(await budget.reserveRoot('r1')).toBe('last');
    expect(await budget.remaining('r1')).toBe(0);
    expect(await budget.reserveRoot('r1')).toBe('exhausted');
    expect(await budget.remaining('r1')).toBe(0);
  });

  it('a counter that is not a number counts as spent (fail closed), never as an error', async () => {
    await budget.create('r-bad', 5);
    await redis.set(treeBudgetKey(prefix, 'r-bad'), 'five');
    expect(await budget.reserveChild('r-bad')).toBe(false);
    expect(await budget.reserveRoot('r-bad')).toBe('exhausted');
    expect(await budget.remaining('r-bad')).toBe(0);
  });

  it('a budget of 1 means the root never gets a normal (tool-using) iteration', async () => {
    await budget.create('r2', 1);
    expect(await budget.reserveRoot('r2')).toBe('last');
  });

  it('the counter lives 24 hours', async () => {
    await budget.create('r3', 5);
    const ttl = await redis.ttl(treeBudgetKey(prefix, 'r3'));
    expect(ttl).toBeGreaterThan(86_000);
    expect(ttl).toBeLessThanOrEqual(86_400);
  });

  it('holds under concurrent reservations from two worker processes', async () => {
    await budget.create('shared', 50);
    const script = join(import.meta.dirname, 'tree-budget-worker.ts');
    const [a, b] = await Promise.all([
      runScript(script, [prefix, 'shared', '40']),
      runScript(script, [prefix, 'shared', '40']),
    ]);
    expect(Number(a) + Number(b)).toBe(49); // 50 → 1: the last slot stays for the root
    expect(Number(a)).toBeGreaterThan(0);
    expect(Number(b)).toBeGreaterThan(0);
    expect(await budget.remaining('shared')).toBe(1);
    expect(await budget.reserveRoot('shared')).toBe('last');
  });
});
