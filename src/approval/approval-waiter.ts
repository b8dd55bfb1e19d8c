// The waiting side of a pending approval (approvals.md §10 lifecycle 2-5): pub/sub for speed, polling for safety,
// a heartbeat so deciders know someone still waits, and expiry/abandonment by compare-and-set.
import type { Redis } from 'ioredis';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import type { ApprovalStore } from './approval-store.ts';
import { logApprovalDecision } from './decision-log.ts';
import type { ApprovalRecord, OperatorAnswer, SettledStatus } from './record.ts';

export interface WaiterTiming {
  /** Status poll while waiting (1 s), in case a publish was missed. */
  pollMs: number;
  /** waiter_heartbeat_at refresh (10 s); deciders treat > 30 s as a dead waiter. */
  heartbeatMs: number;
}

export const DEFAULT_WAITER_TIMING: WaiterTiming = { pollMs: 1_000, heartbeatMs: 10_000 };

/**
 * How a wait ended; each status maps to one §6/§9 meaning: `approved`/`always`/`denied` are the operator's,
 * `expired` is "approver timed out", `undeliverable` is "approver channel unreachable", `cancelled` means the
 * run abandoned it (the call never runs), `missing` (record gone or unreadable) counts as no decision.
 */
export type WaitOutcome =
  | { kind: SettledStatus; record: ApprovalRecord }
  | { kind: 'cancelled'; record: null }
  | { kind: 'missing'; record: null };

export interface WaitOptions {
  /** The run's abort signal: abort → pending becomes cancelled. */
  signal: AbortSignal;
  /** The record's expires_at (ms, Redis clock): a local timer checks then; polling covers any clock skew. */
  expiresAt: number;
}

export interface ApprovalWaiterOptions {
  store: ApprovalStore;
  /**
   * A connection used only for SUBSCRIBE (one per process is enough); absent, one is duplicated from
   * `redis` on first use and closed by close().
   */
  subscriber?: Redis;
  redis: Redis;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** Overrides for tests only. */
  timing?: Partial<WaiterTiming>;
}

export interface ApprovalWaiter {
  waitForDecision(id: string, opts: WaitOptions): Promise<WaitOutcome>;
  /** Stops listening; closes the subscriber connection if this waiter created it. Pending waits keep polling. */
  close(): Promise<void>;
}

const DECISION_OF: Record<SettledStatus, OperatorAnswer> = {
  approved: 'approve',
  always: 'always',
  denied: 'deny',
  expired: 'deny',
  cancelled: 'deny',
  undeliverable: 'deny',
};

/** A setTimeout delay Node accepts (longer ones fire at once). */
const clampDelay = (ms: number) => Math.min(Math.max(0, ms), 2_147_483_647);

export function createApprovalWaiter(opts: ApprovalWaiterOptions): ApprovalWaiter {
  const { store, logger } = opts;
  const timing = { ...DEFAULT_WAITER_TIMING, ...opts.timing };
  const listeners = new Map<string, Set<() => void>>();
  let sub = opts.subscriber;
  let ownSub = false;
  let wired = false;

  const dispatch = (channel: string): void => {
    for (const fn of listeners.get(channel) ?? []) fn();
  };

  const subscriber = (): Redis => {
    if (!sub) {
      sub = opts.redis.duplicate();
      sub.on('error', () => {}); // ioredis reconnects on its own; polling covers the gap
      ownSub = true;
    }
    if (!wired) {
      sub.on('message', dispatch);
      wired = true;
    }
    return sub;
  };

  const listen = async (channel: string, fn: () => void): Promise<void> => {
    const set = listeners.get(channel) ?? new Set();
    set.add(fn);
    listeners.set(channel, set);
    await subscriber().subscribe(channel);
  };

  const unlisten = (channel: string, fn: () => void): void => {
    const set = listeners.get(channel);
    set?.delete(fn);
    if (set && set.size > 0) return;
    listeners.delete(channel);
    sub
      ?.unsubscribe(channel)
      .catch((err: unknown) => logger.warn({ err: errorMessage(err) }, 'approval unsubscribe failed'));
  };

  const outcomeOf = async (id: string): Promise<WaitOutcome | null> => {
    const record = await store.get(id);
    if (!record) return { kind: 'missing', record: null };
    return record.status === 'pending' ? null : { kind: record.status, record };
  };

  const log = (outcome: WaitOutcome): void => {
    const rec = outcome.record;
    if (!rec) return;
    logApprovalDecision(logger, {
      approval_id: rec.approval_id,
      tool: rec.tool,
      args_summary: rec.args_summary,
      agent: rec.agent,
      caller: rec.caller,
      run_id: rec.run_id,
      decision: DECISION_OF[outcome.kind as SettledStatus],
      decided_by: rec.decided_by,
      source: rec.source ?? 'cancelled',
    });
  };

  const waitForDecision = (id: string, wait: WaitOptions): Promise<WaitOutcome> =>
    new Promise<WaitOutcome>((resolve) => {
      const channel = store.keys.decided(id);
      let done = false;
      let busy = false;
      let again = false;

      const finish = (outcome: WaitOutcome): void => {
        if (done) return;
        done = true;
        clearInterval(poll);
        clearInterval(beat);
        clearTimeout(expiry);
        wait.signal.removeEventListener('abort', onAbort);
        unlisten(channel, trigger);
        if (outcome.kind === 'missing')
          logger.warn({ approval_id: id }, 'approval record vanished while waiting');
        log(outcome);
        resolve(outcome);
      };

      // One check at a time; a trigger during a check runs one more after it.
      const check = async (): Promise<void> => {
        if (done) return;
        if (busy) {
          again = true;
          return;
        }
        busy = true;
        try {
          do {
            again = false;
            const res = await store.expireIfDue(id);
            if (res.kind !== 'not_due') {
              const outcome = await outcomeOf(id);
              if (outcome) finish(outcome);
            }
          } while (again && !done);
        } catch (err) {
          logger.warn({ approval_id: id, err: errorMessage(err) }, 'approval status check failed');
        } finally {
          busy = false;
        }
      };
      const trigger = () => void check();

      const onAbort = (): void => {
        void (async () => {
          try {
            await store.cancel(id);
            finish((await outcomeOf(id)) ?? { kind: 'cancelled', record: null });
          } catch (err) {
            // The heartbeat stops with this wait, so deciders fail and the reaper expires the record.
            logger.warn({ approval_id: id, err: errorMessage(err) }, 'approval cancel failed');
            finish({ kind: 'cancelled', record: null });
          }
        })();
      };

      const poll = setInterval(trigger, timing.pollMs);
      const beat = setInterval(() => {
        store.heartbeat(id).catch((err: unknown) => {
          logger.warn({ approval_id: id, err: errorMessage(err) }, 'approval heartbeat failed');
        });
      }, timing.heartbeatMs);
      const expiry = setTimeout(trigger, clampDelay(wait.expiresAt - Date.now() + 5));

      if (wait.signal.aborted) {
        onAbort();
        return;
      }
      wait.signal.addEventListener('abort', onAbort, { once: true });
      // Check once subscribed: a decision published before the subscription is seen here, not lost.
      listen(channel, trigger)
        .catch((err: unknown) =>
          logger.warn({ approval_id: id, err: errorMessage(err) }, 'approval subscribe failed'),
        )
        .finally(trigger);
    });

  return {
    waitForDecision,
    async close() {
      sub?.off('message', dispatch);
      wired = false;
      if (ownSub) sub?.disconnect();
      if (ownSub) sub = undefined;
    },
  };
}
