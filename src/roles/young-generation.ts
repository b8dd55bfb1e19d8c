// Bounds V8's young generation in a long-running role. V8 doubles the young generation while a burst's objects
// survive scavenges, up to 128 MB reserved on a machine with a large heap limit, and keeps what it grew: after
// the 1,000-message burst of `baton start`, 103 MB of its 273 MB resident were young-generation pages holding
// 3.5 MB of objects. `--max-semi-space-size` would bound it but only as a node flag given at start (every
// launcher would need it); the growth factor V8 reads at each resize instead, so a role lets the young
// generation grow (factor 2, V8's default) until it reaches the bound and holds it there (factor 1), re-checked
// after every collection (V8 may shrink it when allocation is low; it may then grow again up to the bound).
// The price is CPU under a burst: more scavenges and more promotion. Measured in alternating runs after the
// burst: V8's own 275–291 MB at 2.12–2.26 ms of CPU per burst turn; 64 MB 214–231 MB at 2.38–2.39 ms; 32 MB
// 197–212 MB at 2.49–2.57 ms. Sequential turns showed no difference.
import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';

/** The young generation's size (as V8 reports `new_space`) a role lets it reach, MB: half V8's own maximum. */
export const DEFAULT_YOUNG_GENERATION_MB = 64;

const V8_GROWTH_FACTOR = 2;

const newSpaceBytes = () =>
  v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;

/**
 * Starts holding the young generation at `BATON_YOUNG_GENERATION_MB` (default 64; 0: V8 decides), unless the
 * operator sized it with node flags. Returns a stop function, or null when V8 decides.
 */
export function boundYoungGeneration(
  env: Record<string, string | undefined>,
  execArgv: readonly string[] = process.execArgv,
  setFlags: (flags: string) => void = v8.setFlagsFromString,
  size: () => number = newSpaceBytes,
): (() => void) | null {
  if ([...execArgv, env.NODE_OPTIONS ?? ''].some((a) => a.includes('semi-space'))) return null;
  const raw = env.BATON_YOUNG_GENERATION_MB;
  const mb = raw === undefined || raw.trim() === '' ? DEFAULT_YOUNG_GENERATION_MB : Number(raw);
  if (!Number.isFinite(mb) || mb <= 0) return null;
  const bound = mb * 2 ** 20;
  let growing = true;
  const check = () => {
    const atBound = size() >= bound;
    if (atBound !== growing) return; // unchanged
    growing = !atBound;
    setFlags(`--semi-space-growth-factor=${growing ? V8_GROWTH_FACTOR : 1}`);
  };
  const observer = new PerformanceObserver(check);
  observer.observe({ entryTypes: ['gc'] });
  check();
  return () => {
    observer.disconnect();
    if (!growing) setFlags(`--semi-space-growth-factor=${V8_GROWTH_FACTOR}`);
  };
}
