// Writes a run starts and need not wait for before it goes on, joined later by whoever owns the run's end: a root
// turn's last cost record leaves together with the turn's settle instead of one round trip before it.
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';

export interface PendingWrites {
  /**
   * Tracks `write`; the promise returned resolves when it has landed or failed (a failure is logged under
   * `what` with `fields`, never thrown: the run has moved on).
   */
  add(write: Promise<unknown>, what: string, fields?: Record<string, unknown>): Promise<void>;
  /** Resolves once every write added so far has landed or failed. */
  landed(): Promise<void>;
}

export function createPendingWrites(logger: Pick<Logger, 'error'>): PendingWrites {
  const pending = new Set<Promise<void>>();
  return {
    add(write, what, fields) {
      const done: Promise<void> = write.then(
        () => {
          pending.delete(done);
        },
        (err: unknown) => {
          pending.delete(done);
          logger.error({ ...fields, err: errorMessage(err) }, what);
        },
      );
      pending.add(done);
      return done;
    },
    async landed() {
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}
