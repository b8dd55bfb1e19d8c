// How large V8's young generation (the new space: two semi-spaces) of a `baton` process may grow.
// V8 doubles a semi-space whenever more than its size survived scavenges since the last doubling, up to a
// maximum it derives from the machine's memory: 64 MB per semi-space here, so the new space alone held about
// 100 MB resident after a 1,000-message burst of `baton start` (its pages stay committed once touched). And module
// loading at startup survives scavenges at a high rate (the modules' objects live for good), so an idle process
// had already grown it to 28 MB resident before any traffic.
// Two bounds, measured with `baton start` (2026-12-04, test/bench/process-lane.ts, alternating with
// BATON_SEMI_SPACE_MB=0, which turns both off):
// - startup: no growth until the role runs (growth factor 1 while modules load; what survives is promoted, as
//   the modules' objects would be anyway): web-only idle 152–162 → 137–142 MB resident;
// - running: the first growth goes straight to the bound (the factor is bound ÷ current size), so the first
//   traffic finds the nursery it found before the hold; then no growth past BATON_SEMI_SPACE_MB (default 32,
//   half V8's choice here): RSS after the lane's 1,000-message burst 282–333 → 226–261 MB, CPU per sequential
//   turn within the noise of the same minutes. Bounds of 16 / 8 MB cost +10–15 / +20–25 % burst CPU.
// V8 reads `--max-semi-space-size` only when the heap is created, so the bound is kept through the growth factor,
// which it reads at every resize.
// The decision follows each collection (a `gc` performance observer, delivered between ticks): a synchronous
// stretch that runs two growing scavenges before the next tick can pass the bound once.
import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';

export const DEFAULT_SEMI_SPACE_MB = 32;

/** V8's own growth factor (`--semi-space-growth-factor` default). */
const V8_GROWTH_FACTOR = 2;
const OPERATOR_FLAGS = ['max-semi-space-size', 'semi-space-growth-factor', 'min-semi-space-size'];
const MB = 2 ** 20;

type SetFlags = (flags: string) => void;

/** The bound in MB per semi-space, or null when V8 decides (operator's own flags, or BATON_SEMI_SPACE_MB=0). */
export function semiSpaceBoundMb(
  env: Record<string, string | undefined>,
  execArgv: readonly string[] = process.execArgv,
): number | null {
  if ([...execArgv, env.NODE_OPTIONS ?? ''].some((a) => OPERATOR_FLAGS.some((f) => a.includes(f))))
    return null;
  const raw = env.BATON_SEMI_SPACE_MB;
  const mb = raw === undefined || raw.trim() === '' ? DEFAULT_SEMI_SPACE_MB : Number(raw);
  return Number.isInteger(mb) && mb > 0 ? mb : null;
}

let holding = false;

/** Stops the young generation's growth while a process starts (see above); `releaseHold` undoes it. */
export function holdYoungGeneration(
  env: Record<string, string | undefined>,
  execArgv: readonly string[] = process.execArgv,
  setFlags: SetFlags = v8.setFlagsFromString,
): boolean {
  if (semiSpaceBoundMb(env, execArgv) === null) return false;
  setFlags('--semi-space-growth-factor=1');
  holding = true;
  return true;
}

/** V8's own growth again after a startup hold (a command that is not a long-running role); no-op without one. */
export function releaseHold(setFlags: SetFlags = v8.setFlagsFromString): void {
  if (!holding) return;
  holding = false;
  setFlags(`--semi-space-growth-factor=${V8_GROWTH_FACTOR}`);
}

/**
 * The decision after each collection: the growth factor that takes the next growth to `boundMb` and no further,
 * given the current semi-space size (1 at the bound). Calls `setFlags` only when the factor changes.
 */
export function semiSpaceGovernor(boundMb: number, setFlags: SetFlags): (semiSpaceMb: number) => number {
  let factor = 0; // unknown: the first decision always sets it
  return (semiSpaceMb) => {
    const next = Math.max(1, Math.floor(boundMb / Math.max(semiSpaceMb, 1)));
    if (next !== factor) {
      factor = next;
      setFlags(`--semi-space-growth-factor=${next}`);
    }
    return next;
  };
}

function semiSpaceMb(): number {
  const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  return space ? space.space_size / 2 / MB : 0;
}

export interface YoungGenerationBound {
  boundMb: number | null;
  stop(): void;
}

/**
 * For a running role: lets the young generation grow again, up to the bound, re-deciding after every collection.
 * Returns what it set; `stop` hands growth back to V8 (in-process roles of tests, which outlive their role).
 */
export function boundYoungGeneration(
  env: Record<string, string | undefined>,
  execArgv: readonly string[] = process.execArgv,
  setFlags: SetFlags = v8.setFlagsFromString,
): YoungGenerationBound {
  const boundMb = semiSpaceBoundMb(env, execArgv);
  if (boundMb === null) {
    releaseHold(setFlags);
    return { boundMb, stop: () => {} };
  }
  holding = false; // the governor sets the factor from here on
  const decide = semiSpaceGovernor(boundMb, setFlags);
  decide(semiSpaceMb());
  const observer = new PerformanceObserver(() => decide(semiSpaceMb()));
  observer.observe({ entryTypes: ['gc'] });
  return {
    boundMb,
    stop() {
      observer.disconnect();
      setFlags(`--semi-space-growth-factor=${V8_GROWTH_FACTOR}`);
    },
  };
}
