// How far V8 lets a long-running role's heap grow past what survived its last full collection.
// V8 picks a growing factor of up to 4× on a machine with a large heap limit: after a burst of turns (each
// allocating short-lived request, stream and history objects that outlive a few scavenges) the old generation
// then holds several times the live set in garbage before the next full collection, and the process keeps
// those pages. A fixed, smaller factor bounds that: measured with `baton start` after a 1,000-message burst,
// 276–289 MB resident at 15 % (294–321 MB at 30 %) instead of 390–480 MB, with no throughput change seen in
// the same minutes (the burst times vary more with the machine than with the setting). The live set
// itself (about 60 MB) is unchanged; only how much garbage may pile up between full collections.
import v8 from 'node:v8';

/** V8's `--heap-growing-percent`: the heap may grow to (1 + this/100) × its live size between full GCs. */
export const DEFAULT_HEAP_GROWING_PERCENT = 15;

const FLAG = 'heap-growing-percent';

/**
 * Sets the factor, read by V8 at each full collection, unless the operator chose one (`--heap-growing-percent`
 * in node's arguments or NODE_OPTIONS) or `BATON_HEAP_GROWING_PERCENT` says otherwise (0: V8's own heuristics).
 * Returns the percent in effect, or null when V8 decides.
 */
export function boundHeapGrowth(
  env: Record<string, string | undefined>,
  execArgv: readonly string[] = process.execArgv,
  setFlags: (flags: string) => void = v8.setFlagsFromString,
): number | null {
  if ([...execArgv, env.NODE_OPTIONS ?? ''].some((a) => a.includes(FLAG))) return null;
  const raw = env.BATON_HEAP_GROWING_PERCENT;
  const percent = raw === undefined || raw.trim() === '' ? DEFAULT_HEAP_GROWING_PERCENT : Number(raw);
  if (!Number.isInteger(percent) || percent <= 0) return null;
  setFlags(`--${FLAG}=${percent}`);
  return percent;
}
