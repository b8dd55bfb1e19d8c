// Typed errors for infrastructure edges; expected outcomes are result objects instead.

/** A config problem; `diagnostics` hold the exact texts, each naming its TOML path. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly diagnostics: string[];
  constructor(message: string, diagnostics: string[] = []) {
    super(message);
    this.diagnostics = diagnostics;
  }
}

/** Thrown when a run is aborted (turn abort, cancel_task, shutdown). */
export class RunAbortedError extends Error {
  override readonly name = 'RunAbortedError';
  constructor(message = 'Cancelled') {
    super(message);
  }
}

/** The error and its causes joined with `: ` (subagents.md §4 step 5). */
export function errorChain(err: unknown): string {
  const parts: string[] = [];
  let cur: unknown = err;
  while (cur !== undefined && cur !== null && parts.length < 10) {
    parts.push(cur instanceof Error ? cur.message : String(cur));
    cur = cur instanceof Error ? cur.cause : undefined;
  }
  return parts.join(': ');
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new RunAbortedError();
}
