// Pending approvals in Redis (approvals.md §10): the worker creates and waits, the gateway decides by one CAS.
// Reads are approval-reads.ts, the compare-and-set approval-settle.ts; this file creates and names the moves.

import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { ApprovalReason } from '../channel-host/approval-card.ts';
import { changeArgs } from '../core/dashboard-changes.ts';
import { isUuid } from '../core/ids.ts';
import type { Logger } from '../core/logger.ts';
import { loadRedisScript } from '../core/redis-script.ts';
import { createApprovalReads } from './approval-reads.ts';
import { type ApprovalMetrics, AUDIT_TTL_MS, createSettle, type DecidedBy } from './approval-settle.ts';
import { summarizeArgs } from './args-summary.ts';
import {
  type ApprovalDestination,
  type ApprovalRecord,
  approvalKeys,
  encodeApprovalFields,
  newReplyToken,
  type OperatorAnswer,
  type SettledStatus,
  STATUS_OF_ANSWER,
} from './record.ts';

const lua = (name: string) => loadRedisScript(join(import.meta.dirname, 'lua', name));
const createScript = lua('create-approval-3.lua');
const heartbeatScript = lua('heartbeat-approval-1.lua');
const setMessageRefScript = lua('set-message-ref-1.lua');
/** A waiter heartbeat older than this means the waiter is gone: decisions fail, the reaper expires it. */
export const STALE_HEARTBEAT_MS = 30_000;
/** Token draws before giving up (a collision needs a live token in the same chat: 1 in 2 billion per draw). */
const TOKEN_ATTEMPTS = 5;

export interface NewApproval {
  tool: string;
  /** Raw arguments: only their §4 summary is stored. */
  args: unknown;
  agent: string;
  caller?: string | null;
  runId: string;
  rootRunId: string;
  channel: string;
  destination: { chat: string; thread?: string | null | undefined };
  /** Why the operator is asked (the card's `Reason:` line); default none. */
  reasons?: readonly ApprovalReason[];
  /** A route prompt (shows the `Agent:` line); default false. */
  routePrompt?: boolean;
  /** A group chat (text mode adds the visibility warning); default true. */
  group?: boolean;
  /** Routed approvals: who started the root run (refused as an answerer). */
  requester?: Requester | null;
  /** expires_at - created_at: the §6 step 4 / §10 lifecycle 4 minimum, computed by the caller. */
  waitMs: number;
}

/** A platform user: channel key and user id. */
export interface Requester {
  channel: string;
  user: string;
}

/** What a press or reply did; `late` means the §10 late-press text applies. */
export type DecideResult =
  | { kind: 'decided'; status: SettledStatus }
  | { kind: 'late'; reason: 'unknown' | 'not_pending' | 'expired' | 'stale_waiter' };

export interface ApprovalStoreOptions {
  redis: Redis;
  prefix: string;
  logger: Pick<Logger, 'warn'>;
  /**
   * Counts prompts and settlements. Every store that creates or settles records should have it: settlements are
   * counted where the compare-and-set wins (gateway decide, waiter expire/cancel, undeliverable, reaper).
   */
  metrics?: ApprovalMetrics;
  /** Override for tests only; default 30 s (§10). */
  staleHeartbeatMs?: number;
}

export type ApprovalStore = ReturnType<typeof createApprovalStore>;

export function createApprovalStore(opts: ApprovalStoreOptions) {
  const { redis } = opts;
  const keys = approvalKeys(opts.prefix);
  const reads = createApprovalReads({ redis, keys, logger: opts.logger });
  const settle = createSettle({
    redis,
    prefix: opts.prefix,
    keys,
    staleMs: opts.staleHeartbeatMs ?? STALE_HEARTBEAT_MS,
    metrics: opts.metrics,
  });

  return {
    keys,
    ...reads,

    /**
     * Writes the pending record and its token index (before anything is posted: §10 lifecycle 1). The token is
     * drawn again while it collides with one still indexed for the same chat (§12.5).
     */
    async createPendingApproval(input: NewApproval): Promise<ApprovalRecord> {
      const destination: ApprovalDestination = {
        chat: input.destination.chat,
        thread: input.destination.thread || null,
      };
      const id = randomUUID();
      for (let attempt = 0; attempt < TOKEN_ATTEMPTS; attempt++) {
        const token = newReplyToken();
        const base = {
          approval_id: id,
          reply_token: token,
          status: 'pending' as const,
          tool: input.tool,
          args_summary: summarizeArgs(input.args),
          agent: input.agent,
          caller: input.caller ?? null,
          run_id: input.runId,
          root_run_id: input.rootRunId,
          channel: input.channel,
          destination,
          reasons: [...(input.reasons ?? [])],
          route_prompt: input.routePrompt ?? false,
          group: input.group ?? true,
          requester: input.requester ?? null,
          message_ref: null,
          decided_by: null,
          decided_at: null,
          source: null,
        };
        const res = (await createScript(
          redis,
          [keys.record(id), keys.token(input.channel, destination.chat, token), keys.pending],
          [
            Math.max(0, Math.round(input.waitMs)),
            AUDIT_TTL_MS,
            id,
            ...changeArgs(opts.prefix, 'approvals', id),
            ...encodeApprovalFields(base),
          ],
        )) as number[];
        if (Number(res[0]) === 1) {
          const at = Number(res[1]);
          opts.metrics?.countApprovalPrompt(input.channel);
          return { ...base, created_at: at, expires_at: Number(res[2]), waiter_heartbeat_at: at };
        }
      }
      throw new Error(
        `no free reply token for ${input.channel}:${destination.chat} after ${TOKEN_ATTEMPTS} draws`,
      );
    },

    /**
     * The §10 lifecycle 2 compare-and-set: succeeds only while pending, before expires_at and with a waiter
     * heartbeat under 30 s old (all on the Redis clock); then writes the decision and publishes it.
     * Call it only after the §11 checks (answer-authz.ts).
     */
    async decide(id: string, answer: OperatorAnswer, decidedBy: DecidedBy): Promise<DecideResult> {
      const status = STATUS_OF_ANSWER[answer];
      const res = await settle(id, 'decide', status, 'operator', decidedBy);
      if (res.kind === 'ok') return { kind: 'decided', status };
      if (res.kind === 'expired') return { kind: 'late', reason: 'expired' };
      if (res.kind === 'stale') return { kind: 'late', reason: 'stale_waiter' };
      if (res.kind === 'not_pending') return { kind: 'late', reason: 'not_pending' };
      return { kind: 'late', reason: 'unknown' };
    },

    /** The gateway could not post (or lost the channel): pending → undeliverable (source unreachable). */
    async markUndeliverable(id: string): Promise<boolean> {
      return (await settle(id, 'undeliverable', 'undeliverable', 'unreachable', null)).kind === 'ok';
    },

    /** Where the prompt was posted (for removing its buttons later); false when the record is gone. */
    async setMessageRef(id: string, ref: { chat: string; messageId: string }): Promise<boolean> {
      if (!isUuid(id)) return false;
      const value = JSON.stringify({ chat: ref.chat, messageId: ref.messageId });
      return Number(await setMessageRefScript(redis, [keys.record(id)], [value])) === 1;
    },

    /** Waiter: pending → expired (source timed_out) once expires_at has passed on the Redis clock. */
    expireIfDue: (id: string) => settle(id, 'expire', 'expired', 'timed_out', null),

    /** Waiter: the run was abandoned (§10 lifecycle 5): pending → cancelled (source cancelled). */
    cancel: (id: string) => settle(id, 'cancel', 'cancelled', 'cancelled', null),

    /** Waiter: refreshes waiter_heartbeat_at; false once the record is gone or settled. */
    async heartbeat(id: string): Promise<boolean> {
      return Number(await heartbeatScript(redis, [keys.record(id)], [])) === 1;
    },

    /**
     * The reaper's pass (delegate.md §11.6): pending records whose waiter heartbeat is stale become `expired`
     * (source timed_out); ids whose record is gone leave the pending set. Returns how many it expired;
     * `onReaped` is told each one (its card is then edited to show it).
     */
    async reapStale(onReaped?: (approvalId: string) => Promise<void>): Promise<number> {
      let reaped = 0;
      for (const id of await redis.zrange(keys.pending, 0, '-1')) {
        const res = await settle(id, 'reap', 'expired', 'timed_out', null);
        if (res.kind === 'ok') {
          reaped += 1;
          await onReaped?.(id);
        } else if (res.kind === 'missing' || res.kind === 'not_pending') await redis.zrem(keys.pending, id);
      }
      return reaped;
    },
  };
}
