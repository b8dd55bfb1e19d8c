// Process signals for a long-running role: SIGTERM/SIGINT ask for one graceful stop, SIGHUP is acknowledged.
//
// The handlers stay installed for the whole life of the process. `npm start` forwards SIGINT to baton while
// the terminal sends it to the same process group, so Ctrl-C arrives twice; a one-shot handler would leave
// the second one to Node's default (immediate death) and cut every running turn. SIGHUP's default would
// also kill the process: supervisors send it to mean "reload", so it must never stop baton.
import { alreadyStopping, reloadUnsupported } from './messages.ts';

export const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;
export const RELOAD_SIGNAL = 'SIGHUP';

export interface StopSignals {
  /** Resolves with the first stop signal's name. */
  readonly stopped: Promise<string>;
  /** Removes the handlers (after the role has shut down). */
  dispose(): void;
}

export function watchStopSignals(say: (line: string) => void): StopSignals {
  let first: string | null = null;
  let resolveStop: (signal: string) => void = () => {};
  const stopped = new Promise<string>((resolve) => {
    resolveStop = resolve;
  });
  const onStop = (signal: NodeJS.Signals) => {
    if (first) return say(alreadyStopping(signal));
    first = signal;
    resolveStop(signal);
  };
  const onReload = (signal: NodeJS.Signals) => say(reloadUnsupported(signal));
  for (const s of STOP_SIGNALS) process.on(s, onStop);
  process.on(RELOAD_SIGNAL, onReload);
  return {
    stopped,
    dispose() {
      for (const s of STOP_SIGNALS) process.off(s, onStop);
      process.off(RELOAD_SIGNAL, onReload);
    },
  };
}
