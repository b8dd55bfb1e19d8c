// The one compare-and-set that moves a pending approval to a final status (approvals.md §10): an operator's
// decision, the waiter's expiry or cancel, an undeliverable card, the reaper. Counted where it wins.
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { changeArgs } from '../core/dashboard-changes.ts';
import { isUuid } from '../core/ids.ts';
import { loadRedisScript } from '../core/redis-script.ts';
import type { ApprovalKeys, ApprovalSource, SettledStatus } from './record.ts';

const settleScript = loadRedisScript(join(import.meta.dirname, 'lua', 'settle-approval-4.lua'));

/** Settled records (and their token index) are the audit trail for 7 days (§10 lifecycle 9, §14). */
export const AUDIT_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface DecidedBy {
  channel: string;
  user: string;
  /** The operator's username, for display beside the id. */
  name?: string | undefined;
}

/** Result of one settle attempt, as the Lua script reports it. */
export type SettleResult =
  | { kind: 'ok'; at: number; createdAt: number }
  | { kind: 'missing' }
  | { kind: 'not_pending'; status: string }
  | { kind: 'expired' }
  | { kind: 'stale' }
  | { kind: 'not_due' };

export type SettleMode = 'decide' | 'expire' | 'reap' | 'cancel' | 'undeliverable';

/** The fleet metrics an approval store records into (the fleet MetricsStore fits). */
export interface ApprovalMetrics {
  countApprovalPrompt(channel: string): void;
  observeApprovalSettled(status: SettledStatus, seconds: number): void;
}

export type Settle = (
  id: string,
  mode: SettleMode,
  status: SettledStatus,
  source: ApprovalSource,
  decidedBy: DecidedBy | null,
) => Promise<SettleResult>;

export function createSettle(opts: {
  redis: Redis;
  prefix: string;
  keys: ApprovalKeys;
  /** A waiter heartbeat older than this means the waiter is gone. */
  staleMs: number;
  metrics?: ApprovalMetrics | undefined;
}): Settle {
  const { redis, keys } = opts;
  /** The token index key of a stored record, read without trusting the rest of it. */
  const tokenKeyOf = async (id: string): Promise<string> => {
    const [channel, destination, token] = await redis.hmget(
      keys.record(id),
      'channel',
      'destination',
      'reply_token',
    );
    try {
      const c = JSON.parse(channel ?? 'null') as unknown;
      const d = JSON.parse(destination ?? 'null') as { chat?: unknown } | null;
      const t = JSON.parse(token ?? 'null') as unknown;
      if (typeof c === 'string' && typeof d?.chat === 'string' && typeof t === 'string') {
        return keys.token(c, d.chat, t);
      }
    } catch {
      // unreadable: the settle still works; the index simply keeps its own TTL
    }
    return keys.unreadableToken;
  };

  return async (id, mode, status, source, decidedBy) => {
    if (!isUuid(id)) return { kind: 'missing' };
    const res = (await settleScript(
      redis,
      [keys.record(id), await tokenKeyOf(id), keys.pending, keys.audit],
      [
        mode,
        status,
        JSON.stringify(source),
        JSON.stringify(decidedBy),
        opts.staleMs,
        AUDIT_TTL_MS,
        id,
        keys.decided(id),
        ...changeArgs(opts.prefix, 'approvals', id),
      ],
    )) as [string, string | number | undefined, number | undefined];
    switch (res[0]) {
      case 'ok': {
        const at = Number(res[1]);
        const createdAt = Number(res[2] ?? at);
        // Exactly once per record: only the winning compare-and-set gets here (both times on the Redis clock).
        opts.metrics?.observeApprovalSettled(status, (at - createdAt) / 1000);
        return { kind: 'ok', at, createdAt };
      }
      case 'not_pending':
        return { kind: 'not_pending', status: String(res[1]) };
      case 'missing':
      case 'expired':
      case 'stale':
      case 'not_due':
        return { kind: res[0] };
      default:
        throw new Error(`settle-approval returned ${JSON.stringify(res)}`);
    }
  };
}
