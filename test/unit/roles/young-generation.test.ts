// The young generation's bound: when baton sets it, the growth factor it decides after each collection, and a
// real V8 heap kept within it (a child process that allocates survivors at a high rate).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SEMI_SPACE_MB,
  holdYoungGeneration,
  releaseHold,
  semiSpaceBoundMb,
  semiSpaceGovernor,
} from '../../../src/roles/young-generation.ts';

const MODULE = join(import.meta.dirname, '..', '..', '..', 'src', 'roles', 'young-generation.ts');

describe('semiSpaceBoundMb', () => {
  it('defaults, takes BATON_SEMI_SPACE_MB, and 0 or a bad value leaves it to V8', () => {
    expect(semiSpaceBoundMb({}, [])).toBe(DEFAULT_SEMI_SPACE_MB);
    expect(semiSpaceBoundMb({ BATON_SEMI_SPACE_MB: '16' }, [])).toBe(16);
    expect(semiSpaceBoundMb({ BATON_SEMI_SPACE_MB: '0' }, [])).toBeNull();
    expect(semiSpaceBoundMb({ BATON_SEMI_SPACE_MB: 'big' }, [])).toBeNull();
  });

  it("leaves an operator's own semi-space flags alone", () => {
    expect(semiSpaceBoundMb({}, ['--max-semi-space-size=8'])).toBeNull();
    expect(semiSpaceBoundMb({ NODE_OPTIONS: '--semi-space-growth-factor=3' }, [])).toBeNull();
  });
});

describe('the startup hold', () => {
  it('stops growth, and releasing it restores V8 default factor once', () => {
    const set: string[] = [];
    expect(holdYoungGeneration({}, [], (f) => set.push(f))).toBe(true);
    releaseHold((f) => set.push(f));
    releaseHold((f) => set.push(f));
    expect(set).toEqual(['--semi-space-growth-factor=1', '--semi-space-growth-factor=2']);
  });

  it('does nothing when V8 decides', () => {
    const set: string[] = [];
    expect(holdYoungGeneration({ BATON_SEMI_SPACE_MB: '0' }, [], (f) => set.push(f))).toBe(false);
    releaseHold((f) => set.push(f));
    expect(set).toEqual([]);
  });
});

describe('semiSpaceGovernor', () => {
  it('takes the next growth straight to the bound and no further, and sets a factor only on change', () => {
    const set: string[] = [];
    const decide = semiSpaceGovernor(32, (f) => set.push(f));
    expect([1, 1, 8, 16, 32, 32, 4, 64].map(decide)).toEqual([32, 32, 4, 2, 1, 1, 8, 1]);
    expect(set).toEqual([
      '--semi-space-growth-factor=32',
      '--semi-space-growth-factor=4',
      '--semi-space-growth-factor=2',
      '--semi-space-growth-factor=1',
      '--semi-space-growth-factor=8',
      '--semi-space-growth-factor=1',
    ]);
  });
});

/** New space size (both semi-spaces, MB) after a child allocated 3 million objects keeping a third, in 300 ticks. */
function grownNewSpaceMb(env: Record<string, string>): number {
  const script = `
    import { boundYoungGeneration } from ${JSON.stringify(MODULE)};
    import v8 from 'node:v8';
    const bound = boundYoungGeneration(process.env);
    const keep = [];
    for (let round = 0; round < 300; round++) {
      for (let i = 0; i < 10000; i++) { const o = { i, s: 'x' + i }; if (i % 3 === 0) keep.push(o); }
      await new Promise((r) => setImmediate(r)); // the governor decides after collections, between ticks
    }
    const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    bound.stop();
    process.stdout.write(String(space.space_size / 2 ** 20));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return Number(r.stdout);
}

describe('a real heap', () => {
  it('keeps the new space within twice the bound, where V8 alone grows it further', () => {
    expect(grownNewSpaceMb({ BATON_SEMI_SPACE_MB: '4' })).toBeLessThanOrEqual(8);
    expect(grownNewSpaceMb({ BATON_SEMI_SPACE_MB: '0' })).toBeGreaterThan(8);
  }, 30_000);
});
