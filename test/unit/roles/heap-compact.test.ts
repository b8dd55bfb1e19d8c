// The memory-reducing collection a long-running role runs once it has started.
import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { compactAfterStart } from '../../../src/roles/heap-compact.ts';

const newSpaceMb = () =>
  (v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.physical_space_size ?? 0) / 2 ** 20;

describe('compactAfterStart', () => {
  it('shrinks the young generation a burst of allocations grew', () => {
    let keep: unknown[] = [];
    for (let i = 0; i < 200_000; i++) {
      keep.push({ i, s: `x${i}` });
      if (keep.length > 5000) keep = [];
    }
    expect(keep.length).toBeGreaterThan(0);
    const before = newSpaceMb();
    expect(compactAfterStart({})).toBe(true);
    expect(newSpaceMb()).toBeLessThan(Math.max(2, before / 2));
  });

  it('BATON_COMPACT_AFTER_START=0 skips it', () => {
    expect(compactAfterStart({ BATON_COMPACT_AFTER_START: '0' })).toBe(false);
  });
});
