// The bound a long-running role keeps V8's young generation under, and when it leaves V8 alone.
import { setImmediate as tick } from 'node:timers/promises';
import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { compactAfterStart } from '../../../src/roles/heap-compact.ts';
import { boundYoungGeneration, DEFAULT_YOUNG_GENERATION_MB } from '../../../src/roles/young-generation.ts';

const MB = 2 ** 20;

describe('boundYoungGeneration', () => {
  it('lets the young generation grow until the bound, holds it there, and lets it grow again below it', () => {
    const set: string[] = [];
    let size = 4 * MB;
    const stop = boundYoungGeneration(
      {},
      [],
      (f) => set.push(f),
      () => size,
    );
    expect(set).toEqual([]); // below the bound: V8's own factor
    size = DEFAULT_YOUNG_GENERATION_MB * MB;
    stop?.(); // the stop re-checks nothing; a fresh bound sees the size
    const again = boundYoungGeneration(
      {},
      [],
      (f) => set.push(f),
      () => size,
    );
    expect(set).toEqual(['--semi-space-growth-factor=1']);
    again?.();
    expect(set).toEqual(['--semi-space-growth-factor=1', '--semi-space-growth-factor=2']);
  });

  it('takes BATON_YOUNG_GENERATION_MB, 0 leaves it to V8, and an operator node flag wins', () => {
    const set: string[] = [];
    const at = (env: Record<string, string>, argv: string[] = []) =>
      boundYoungGeneration(
        env,
        argv,
        (f) => set.push(f),
        () => 40 * MB,
      );
    at({ BATON_YOUNG_GENERATION_MB: '64' })?.();
    expect(set).toEqual([]);
    expect(at({ BATON_YOUNG_GENERATION_MB: '0' })).toBeNull();
    expect(at({}, ['--max-semi-space-size=8'])).toBeNull();
    expect(at({ NODE_OPTIONS: '--semi-space-growth-factor=3' })).toBeNull();
    expect(set).toEqual([]);
  });

  it('holds the real young generation at the bound under allocation', async () => {
    const newSpace = () =>
      v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
    compactAfterStart({}); // start small, as a role does
    const stop = boundYoungGeneration({ BATON_YOUNG_GENERATION_MB: '4' });
    try {
      let keep: unknown[] = [];
      for (let round = 0; round < 200; round++) {
        for (let i = 0; i < 5000; i++) keep.push({ round, i, s: `x${i}` });
        if (keep.length > 50_000) keep = keep.slice(-20_000); // survivors, as a burst's turns are
        await tick(); // the GC observer reports between ticks
      }
      expect(keep.length).toBeGreaterThan(0);
      // V8's own growth reaches 64 MB in this loop. The observer hears of a resize after it happened, and a loaded
      // machine has seen two resizes before it (12 MB); held, the young generation grows no further.
      expect(newSpace()).toBeLessThanOrEqual(16 * MB);
    } finally {
      stop?.();
    }
  });
});
