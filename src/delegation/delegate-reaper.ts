// The supervision reaper (delegate.md §11.6): running records whose worker died become lost, overdue ones timed_out;
// pending approvals whose waiter died become expired (approvals.md §10 lifecycle 6).
import type { Redis } from 'ioredis';
import type { ApprovalStore } from '../approval/approval-store.ts';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { createDelegateTasks } from './delegate-tasks.ts';
import type { DelegationServices } from './delegation-services.ts';

export interface ReaperOptions {
  redis: Redis;
  prefix: string;
  /** Job states and cancel publishing (the delegate queue client). */
  delegation: Pick<DelegationServices, 'jobState' | 'publishCancel'>;
  logger: Logger;
  intervalMs?: number;
  /** A heartbeat older than this means the owner is gone (150 s). */
  staleHeartbeatMs?: number;
  /** Runtime allowed past timeout_budget_secs before timed_out (300 s). */
  overrunSecs?: number;
  /**
   * A record without heartbeat is only judged after this long: between admission and enqueue its job does not
   * exist yet, and that must not read as a dead worker.
   */
  admissionGraceMs?: number;
  /** Pending approvals to reap in the same pass (records whose waiter heartbeat is stale). */
  approvals?: Pick<ApprovalStore, 'reapStale'>;
  /** Told each approval the pass expired (its waiter is gone, so nobody else edits its card). */
  onApprovalExpired?: (approvalId: string) => Promise<void>;
  /** A first pass this soon after start (workers: what a dead fleet left is not left a whole interval). */
  firstPassMs?: number;
  /** Told each task record this pass settled (lost, timed_out): its chat hears of it (live.md §4). */
  onTaskSettled?: (taskId: string) => Promise<void>;
}

export interface DelegateReaper {
  /**
   * One pass under the lock; returns how many task records it settled (0 when another reaper holds the lock).
   * Approvals it expires are logged, not counted.
   */
  runOnce(): Promise<number>;
  close(): void;
}

export function startDelegateReaper(opts: ReaperOptions): DelegateReaper {
  const tasks = createDelegateTasks(opts.redis, opts.prefix, opts.logger);
  const lockKey = `${opts.prefix}:delegate-reaper-lock`;
  const interval = opts.intervalMs ?? 60_000;
  const stale = opts.staleHeartbeatMs ?? 150_000;
  const overrun = (opts.overrunSecs ?? 300) * 1000;
  const grace = opts.admissionGraceMs ?? 10_000;

  const judge = async (id: string, now: number): Promise<boolean> => {
    const won = await settleIfDead(id, now);
    if (won) await opts.onTaskSettled?.(id).catch(() => {});
    return won;
  };

  const settleIfDead = async (id: string, now: number): Promise<boolean> => {
    const rec = await tasks.get(id);
    // Gone, settled, or unreadable (logged by get): nothing to supervise, so it stops holding an in-flight slot.
    if (rec?.status !== 'running') {
      await tasks.forgetInFlight(id);
      return false;
    }
    const started = Date.parse(rec.started_at);
    if (rec.timeout_budget_secs !== null && now - started > rec.timeout_budget_secs * 1000 + overrun) {
      const won = await tasks.settle(id, 'timed_out', {});
      if (won) await opts.delegation.publishCancel(id);
      return won;
    }
    if (rec.heartbeat_at !== null) {
      return now - Date.parse(rec.heartbeat_at) > stale && tasks.settle(id, 'lost', {});
    }
    if (now - started < grace) return false;
    const state = await opts.delegation.jobState(id);
    return state !== 'waiting' && state !== 'delayed' && tasks.settle(id, 'lost', {});
  };

  const reapApprovals = async (): Promise<void> => {
    if (!opts.approvals) return;
    const expired = await opts.approvals.reapStale(opts.onApprovalExpired).catch((err: unknown) => {
      opts.logger.warn({ err: errorMessage(err) }, 'reaper could not judge pending approvals');
      return 0;
    });
    if (expired > 0) opts.logger.warn({ expired }, 'reaper expired approvals whose waiter is gone');
  };

  const runOnce = async (): Promise<number> => {
    // One reaper at a time across the fleet; the lock expires on its own if this process dies mid-pass.
    const got = await opts.redis.set(lockKey, String(process.pid), 'PX', Math.max(interval, 5_000), 'NX');
    if (got !== 'OK') return 0;
    try {
      const now = Date.now();
      let settled = 0;
      for (const id of await tasks.inFlight()) {
        // One record that cannot be judged is logged and left for the next pass; the others are judged now.
        const won = await judge(id, now).catch((err: unknown) => {
          opts.logger.warn({ task_id: id, err: errorMessage(err) }, 'delegate reaper could not judge a task');
          return false;
        });
        if (won) settled += 1;
      }
      if (settled > 0) opts.logger.warn({ settled }, 'delegate reaper settled abandoned background tasks');
      await reapApprovals();
      return settled;
    } finally {
      await opts.redis.del(lockKey);
    }
  };

  const pass = () => {
    runOnce().catch((err: unknown) => opts.logger.warn({ err }, 'delegate reaper pass failed'));
  };
  const first = opts.firstPassMs === undefined ? undefined : setTimeout(pass, opts.firstPassMs);
  const timer = setInterval(pass, interval);
  first?.unref();
  timer.unref();
  return {
    runOnce,
    close: () => {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
