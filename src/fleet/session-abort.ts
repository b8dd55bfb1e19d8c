// POST /api/sessions/:id/abort: finds the session's running turn and publishes the abort to whichever worker runs it.
import type { AbortBus } from './abort-bus.ts';
import type { RunningTurns } from './running-turns.ts';

/** `runId` is null when the session's running mark could not be read (the abort is published all the same). */
export type SessionAbortResult = { aborted: true; runId: string | null } | { aborted: false };

export type AbortSession = (sessionKey: string) => Promise<SessionAbortResult>;

/** The abort reaches the worker through Redis pub/sub; that worker aborts the turn's signal (delegate.md §16). */
export function createSessionAbort(runningTurns: RunningTurns, abortBus: AbortBus): AbortSession {
  return async (sessionKey) => {
    const running = await runningTurns.get(sessionKey);
    if (!running) return { aborted: false };
    // Named by run: the worker may already have begun the session's next turn (its settle marks the next head),
    // and an abort aimed at the run it found must not stop that one.
    await abortBus.publish('session', sessionKey, undefined, running.rootRunId ?? undefined);
    return { aborted: true, runId: running.runId };
  };
}
