// The pending-approval record in Redis (approvals.md §10): schema, keys, and the hash codec.
// Times are epoch milliseconds on the Redis clock (stamped by TIME inside the scripts), so the worker that waits
// and the gateway that decides compare one clock whatever the skew between their hosts.
import { randomInt } from 'node:crypto';
import { z } from 'zod';
import { APPROVAL_REASONS } from '../channel-host/approval-card.ts';
import { globalTag } from '../core/key-layout.ts';
import type { Logger } from '../core/logger.ts';
import { checkRecord } from '../core/redis-record.ts';

export const APPROVAL_STATUSES = [
  'pending',
  'approved',
  'always',
  'denied',
  'expired',
  'cancelled',
  'undeliverable',
] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
export type SettledStatus = Exclude<ApprovalStatus, 'pending'>;

export const APPROVAL_SOURCES = ['operator', 'timed_out', 'unreachable', 'unavailable', 'cancelled'] as const;
export type ApprovalSource = (typeof APPROVAL_SOURCES)[number];

/** An operator's answer; Discord's "Allow this session" and "Always allow" are both `always` (§3). */
export type OperatorAnswer = 'approve' | 'always' | 'deny';

export const STATUS_OF_ANSWER: Record<OperatorAnswer, SettledStatus> = {
  approve: 'approved',
  always: 'always',
  deny: 'denied',
};

export const REPLY_TOKEN_RE = /^[a-z0-9]{6}$/;

const destinationSchema = z.object({ chat: z.string().min(1), thread: z.string().min(1).nullable() });
export type ApprovalDestination = z.infer<typeof destinationSchema>;

export const approvalRecordSchema = z.object({
  approval_id: z.uuid(),
  reply_token: z.string().regex(REPLY_TOKEN_RE),
  status: z.enum(APPROVAL_STATUSES),
  tool: z.string(),
  args_summary: z.string(),
  /** Whose call it is: for a delegated child, the target. */
  agent: z.string(),
  /** The immediate caller of a delegated child; null otherwise. */
  caller: z.string().nullable(),
  run_id: z.string(),
  root_run_id: z.string(),
  /** Channel key `<type>.<alias>`. */
  channel: z.string().min(1),
  destination: destinationSchema,
  /** Why the operator is asked (the card's `Reason:` line); records written before the field read as none. */
  reasons: z.array(z.enum(APPROVAL_REASONS)).default([]),
  /** A route prompt shows the `Agent:` line (§12.1); prompts in the originating chat do not. */
  route_prompt: z.boolean().default(false),
  /** The destination is a group chat, guild channel or Slack channel: text mode adds the visibility warning. */
  group: z.boolean().default(true),
  /**
   * Routed approvals: the platform user whose message started the root run; they may not answer it (§11).
   * Null when the gate has no route or the run has no requester; records written before the field read as null.
   */
  requester: z
    .object({ channel: z.string().min(1), user: z.string().min(1) })
    .nullable()
    .default(null),
  /** The posted prompt (set by the gateway once posted). */
  message_ref: z.object({ chat: z.string(), messageId: z.string() }).nullable(),
  created_at: z.number(),
  expires_at: z.number(),
  waiter_heartbeat_at: z.number(),
  /** Channel key and platform user id of the operator (and their username, for display); null for runtime outcomes. */
  decided_by: z.object({ channel: z.string(), user: z.string(), name: z.string().optional() }).nullable(),
  decided_at: z.number().nullable(),
  source: z.enum(APPROVAL_SOURCES).nullable(),
});
export type ApprovalRecord = z.infer<typeof approvalRecordSchema>;

/**
 * Redis names under the deployment prefix. Every key shares the approvals' hash tag: creating and settling an
 * approval move its record, its token index and the pending/audit sets in one script (spec/config.md §15.1.1).
 */
export type ApprovalKeys = ReturnType<typeof approvalKeys>;

export const approvalKeys = (prefix: string) => {
  const tag = globalTag(prefix, 'approvals');
  return {
    record: (id: string) => `${tag}:approval:${id}`,
    /**
     * Token index, scoped to the channel and chat (not the thread): tokens are unique per chat (§12.5), and the
     * §11 destination check then decides whether a thread must match (Slack: same channel is enough).
     */
    token: (channel: string, chat: string, token: string) =>
      `${tag}:token:${channel}:${chat}:${token.toLowerCase()}`,
    /** Stands in for the token index of a record too damaged to name its own (settling still works). */
    unreadableToken: `${tag}:token:unreadable`,
    /** Sorted set of pending approval ids by created_at (listing, reaper). */
    pending: `${tag}:pending`,
    /** Sorted set of settled approval ids by decided_at (the 7-day audit trail). */
    audit: `${tag}:audit`,
    /** The pub/sub channel a decision is published on (a channel, not a key: no slot). */
    decided: (id: string) => `${prefix}:approval-decided:${id}`,
  };
};

const TOKEN_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** 6 characters from a-z0-9, each drawn with crypto randomness (no modulo bias: randomInt is uniform). */
export function newReplyToken(): string {
  let out = '';
  for (let i = 0; i < 6; i++) out += TOKEN_ALPHABET[randomInt(TOKEN_ALPHABET.length)];
  return out;
}

/** Hash field/value pairs: `status` is stored raw (Lua compares it), every other field as JSON. */
export function encodeApprovalFields(fields: Partial<ApprovalRecord>): string[] {
  return Object.entries(fields).flatMap(([k, v]) =>
    k === 'status' ? [k, String(v)] : [k, JSON.stringify(v ?? null)],
  );
}

/** A stored hash back into a record: null when absent, null (logged, never thrown) when unreadable. */
export function decodeApprovalRecord(
  raw: Record<string, string>,
  ctx: { logger: Pick<Logger, 'warn'>; key: string },
): ApprovalRecord | null {
  if (Object.keys(raw).length === 0) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    try {
      out[k] = k === 'status' ? v : JSON.parse(v);
    } catch {
      out[k] = undefined; // not JSON: the schema names the field in the log line
    }
  }
  return checkRecord(approvalRecordSchema, out, { ...ctx, what: 'approval record' }) ?? null;
}
