// The waiting side of a pending approval (approvals.md §10 lifecycle 2-5): pub/sub for speed, polling for safety,
// a heartbeat so deciders know someone still waits, and expiry/abandonment by compare-and-set. Each wait is a
// small state machine (DecisionWait): idle → checking (→ recheck when triggered meanwhile) → idle, or → done.
import type { Redis } from 'ioredis';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import type { ApprovalStore } from './approval-store.ts';
import { logApprovalDecision } from './decision-log.ts';
import { createDecisionSubscriptions, type DecisionSubscriptions } from './decision-subscriptions.ts';
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

/** `checking`: one status check runs; `recheck`: a trigger came during it, so one more check follows. */
type WaitState = 'idle' | 'checking' | 'recheck' | 'done';

interface WaitDeps {
  store: ApprovalStore;
  subscriptions: DecisionSubscriptions;
  logger: Pick<Logger, 'info' | 'warn'>;
  timing: WaiterTiming;
}

class DecisionWait {
  private state: WaitState = 'idle';
  /** Everything to undo when the wait ends: timers, the abort listener, the subscription. */
  private readonly cleanups: (() => void)[] = [];
  private readonly channel: string;
  private resolve!: (outcome: WaitOutcome) => void;
  readonly outcome = new Promise<WaitOutcome>((resolve) => {
    this.resolve = resolve;
  });

  private readonly deps: WaitDeps;
  private readonly id: string;
  private readonly wait: WaitOptions;

  constructor(deps: WaitDeps, id: string, wait: WaitOptions) {
    this.deps = deps;
    this.id = id;
    this.wait = wait;
    this.channel = deps.store.keys.decided(id);
  }

  /** Read through a method: the state changes across awaits, which TypeScript's narrowing does not see. */
  private now(): WaitState {
    return this.state;
  }

  start(): void {
    const { timing, logger } = this.deps;
    const poll = setInterval(this.trigger, timing.pollMs);
    const beat = setInterval(() => {
      this.deps.store.heartbeat(this.id).catch((err: unknown) => {
        logger.warn({ approval_id: this.id, err: errorMessage(err) }, 'approval heartbeat failed');
      });
    }, timing.heartbeatMs);
    const expiry = setTimeout(this.trigger, clampDelay(this.wait.expiresAt - Date.now() + 5));
    this.cleanups.push(
      () => clearInterval(poll),
      () => clearInterval(beat),
      () => clearTimeout(expiry),
    );
    if (this.wait.signal.aborted) {
      this.abandon();
      return;
    }
    this.wait.signal.addEventListener('abort', this.abandon, { once: true });
    this.cleanups.push(() => this.wait.signal.removeEventListener('abort', this.abandon));
    this.cleanups.push(() => this.deps.subscriptions.unlisten(this.channel, this.trigger));
    // Check once subscribed: a decision published before the subscription is seen here, not lost.
    this.deps.subscriptions
      .listen(this.channel, this.trigger)
      .catch((err: unknown) =>
        logger.warn({ approval_id: this.id, err: errorMessage(err) }, 'approval subscribe failed'),
      )
      .finally(this.trigger);
  }

  /** A publish, a poll tick or the expiry timer: check now, or once more after the check under way. */
  private readonly trigger = (): void => {
    if (this.state === 'idle') void this.check();
    else if (this.state === 'checking') this.state = 'recheck';
  };

  private async check(): Promise<void> {
    this.state = 'checking';
    try {
      for (;;) {
        const res = await this.deps.store.expireIfDue(this.id);
        if (res.kind !== 'not_due') {
          const outcome = await this.outcomeNow();
          if (outcome) return this.finish(outcome);
        }
        if (this.now() !== 'recheck') break;
        this.state = 'checking';
      }
    } catch (err) {
      this.deps.logger.warn({ approval_id: this.id, err: errorMessage(err) }, 'approval status check failed');
    }
    if (this.now() !== 'done') this.state = 'idle';
  }

  /** The run gave up: pending becomes cancelled (the call never runs). */
  private readonly abandon = (): void => {
    void (async () => {
      try {
        await this.deps.store.cancel(this.id);
        this.finish((await this.outcomeNow()) ?? { kind: 'cancelled', record: null });
      } catch (err) {
        // The heartbeat stops with this wait, so deciders fail and the reaper expires the record.
        this.deps.logger.warn({ approval_id: this.id, err: errorMessage(err) }, 'approval cancel failed');
        this.finish({ kind: 'cancelled', record: null });
      }
    })();
  };

  private async outcomeNow(): Promise<WaitOutcome | null> {
    const record = await this.deps.store.get(this.id);
    if (!record) return { kind: 'missing', record: null };
    return record.status === 'pending' ? null : { kind: record.status, record };
  }

  private finish(outcome: WaitOutcome): void {
    if (this.state === 'done') return;
    this.state = 'done';
    for (const undo of this.cleanups.splice(0)) undo();
    if (outcome.kind === 'missing')
      this.deps.logger.warn({ approval_id: this.id }, 'approval record vanished while waiting');
    logOutcome(this.deps.logger, outcome);
    this.resolve(outcome);
  }
}

function logOutcome(logger: Pick<Logger, 'info' | 'warn'>, outcome: WaitOutcome): void {
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
}

export function createApprovalWaiter(opts: ApprovalWaiterOptions): ApprovalWaiter {
  const subscriptions = createDecisionSubscriptions(opts);
  const deps: WaitDeps = {
    store: opts.store,
    subscriptions,
    logger: opts.logger,
    timing: { ...DEFAULT_WAITER_TIMING, ...opts.timing },
  };
  return {
    waitForDecision(id, wait) {
      const w = new DecisionWait(deps, id, wait);
      w.start();
      return w.outcome;
    },
    async close() {
      subscriptions.close();
    },
  };
}
