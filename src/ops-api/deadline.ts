// Time limits for Redis-backed probes: the ops API answers quickly even while Redis hangs or is down.

export class DeadlineError extends Error {
  override readonly name = 'DeadlineError';
}

/** Resolves like `work`, or rejects with "timed out after <ms> ms" first; a late rejection of `work` is ignored. */
export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  work.catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(`timed out after ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export type Settled<T> = { ok: true; value: T; ms: number } | { ok: false; error: string; ms: number };

/** Runs a probe under a deadline and reports the outcome instead of throwing. */
export async function settle<T>(probe: () => Promise<T>, ms: number): Promise<Settled<T>> {
  const started = performance.now();
  const took = () => Math.round((performance.now() - started) * 10) / 10;
  try {
    const value = await withDeadline(probe(), ms);
    return { ok: true, value, ms: took() };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err), ms: took() };
  }
}
