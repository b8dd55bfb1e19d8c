// Live-platform tests run only with real credentials in the environment; otherwise they skip, saying which.

export interface LiveEnv {
  /** The variables' values (empty strings when missing). */
  vars: Record<string, string>;
  /** Why the suite skips; null when every variable is set. */
  skipReason: string | null;
}

export function liveEnv(names: readonly string[]): LiveEnv {
  const vars = Object.fromEntries(names.map((n) => [n, process.env[n]?.trim() ?? '']));
  const missing = names.filter((n) => !vars[n]);
  return {
    vars,
    skipReason: missing.length ? `live test skipped: ${missing.join(', ')} not set` : null,
  };
}

/** A text no earlier run sent, to recognise this run's message. */
export const liveNonce = () => `baton live check ${new Date().toISOString()} ${process.pid}`;

/** A host for adapters that must be started to send: platform events during the test are not taken. */
export const ignoringHost = {
  receive: async () => ({ accepted: false as const, reason: 'unhandled' as const }),
};
