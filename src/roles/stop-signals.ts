// Process signals for a long-running role: SIGTERM/SIGINT ask for one graceful stop, SIGHUP reloads the config.
//
// The handlers stay installed for the whole life of the process. `npm start` forwards SIGINT to baton while
// the terminal sends it to the same process group, so Ctrl-C arrives twice; a one-shot handler would leave
// the second one to Node's default (immediate death) and cut every running turn. SIGHUP's default would
// also kill the process: supervisors send it to mean "reload", so it must never stop baton.
import { alreadyStopping, reloadWhileStarting } from './role-messages.ts';

export const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;
export const RELOAD_SIGNAL = 'SIGHUP';

export interface StopSignals {
  /** Resolves with the first stop signal's name. */
  readonly stopped: Promise<string>;
  /** What SIGHUP does once the role runs (until then it is acknowledged and ignored). */
  onReload(handler: (signal: string) => void): void;
  /** Removes the handlers (after the role has shut down). */
  dispose(): void;
  /** Resolves once `signal` has arrived `times` times in all, or after `ms`. */
  received(signal: string, times: number, ms: number): Promise<void>;
}

/** What the watcher listens on: the process, or an emitter standing in for it in a unit test. */
export interface SignalSource {
  on(signal: string, listener: (signal: NodeJS.Signals) => void): unknown;
  off(signal: string, listener: (signal: NodeJS.Signals) => void): unknown;
}

export function watchStopSignals(say: (line: string) => void, source: SignalSource = process): StopSignals {
  let first: string | null = null;
  let resolveStop: (signal: string) => void = () => {};
  const stopped = new Promise<string>((resolve) => {
    resolveStop = resolve;
  });
  const counts = new Map<string, number>();
  let counted: (() => void)[] = [];
  const onStop = (signal: NodeJS.Signals) => {
    counts.set(signal, (counts.get(signal) ?? 0) + 1);
    for (const tell of counted) tell();
    if (first) return say(alreadyStopping(signal));
    first = signal;
    resolveStop(signal);
  };
  let reload: ((signal: string) => void) | null = null;
  const onReload = (signal: NodeJS.Signals) => (reload ? reload(signal) : say(reloadWhileStarting(signal)));
  for (const s of STOP_SIGNALS) source.on(s, onStop);
  source.on(RELOAD_SIGNAL, onReload);
  return {
    stopped,
    onReload(handler) {
      reload = handler;
    },
    dispose() {
      for (const s of STOP_SIGNALS) source.off(s, onStop);
      source.off(RELOAD_SIGNAL, onReload);
    },
    received(signal, times, ms) {
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          counted = counted.filter((t) => t !== check);
          resolve();
        }
        function check() {
          if ((counts.get(signal) ?? 0) >= times) done();
        }
        counted.push(check);
        check();
      });
    },
  };
}
