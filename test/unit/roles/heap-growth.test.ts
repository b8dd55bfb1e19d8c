// The heap growing factor a long-running role sets for V8, and when it leaves V8's own choice alone.
import { describe, expect, it } from 'vitest';
import { boundHeapGrowth, DEFAULT_HEAP_GROWING_PERCENT } from '../../../src/roles/heap-growth.ts';

function run(env: Record<string, string | undefined>, execArgv: string[] = []) {
  const set: string[] = [];
  const percent = boundHeapGrowth(env, execArgv, (f) => set.push(f));
  return { percent, set };
}

describe('boundHeapGrowth', () => {
  it('sets the default factor', () => {
    expect(run({})).toEqual({
      percent: DEFAULT_HEAP_GROWING_PERCENT,
      set: [`--heap-growing-percent=${DEFAULT_HEAP_GROWING_PERCENT}`],
    });
  });

  it('takes BATON_HEAP_GROWING_PERCENT, and 0 leaves the factor to V8', () => {
    expect(run({ BATON_HEAP_GROWING_PERCENT: '60' })).toEqual({
      percent: 60,
      set: ['--heap-growing-percent=60'],
    });
    expect(run({ BATON_HEAP_GROWING_PERCENT: '0' })).toEqual({ percent: null, set: [] });
    expect(run({ BATON_HEAP_GROWING_PERCENT: 'lots' })).toEqual({ percent: null, set: [] });
  });

  it("leaves an operator's own node flag alone", () => {
    expect(run({}, ['--heap-growing-percent=80'])).toEqual({ percent: null, set: [] });
    expect(run({ NODE_OPTIONS: '--heap-growing-percent=80' })).toEqual({ percent: null, set: [] });
  });
});
