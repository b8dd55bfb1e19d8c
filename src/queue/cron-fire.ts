// The cron queue's job payload and ids: which job a fire belongs to, and how its BullMQ ids are spelled.
import { getNextMillis } from 'bullmq';
import { z } from 'zod';
import { errorMessage } from '../core/errors.ts';

export const firePayloadSchema = z.discriminatedUnion('source', [
  z.object({ source: z.literal('config'), alias: z.string().min(1), fp: z.string().optional() }),
  z.object({ source: z.literal('tool'), id: z.string().min(1), fp: z.string().optional() }),
]);
export type FirePayload = z.infer<typeof firePayloadSchema>;

export const FIRE_JOB_NAME = 'fire';

// Scheduler ids become part of BullMQ job ids (`repeat:<id>:<millis>`), which allow no further ':'.
const safe = (s: string) => encodeURIComponent(s);
export const CONFIG_SCHEDULER_PREFIX = 'cfg-';
export const TOOL_SCHEDULER_PREFIX = 'tool-';
export const configSchedulerId = (alias: string) => `${CONFIG_SCHEDULER_PREFIX}${safe(alias)}`;
export const toolSchedulerId = (id: string) => `${TOOL_SCHEDULER_PREFIX}${safe(id)}`;
/** One-off `at` fires: deterministic, so a second process or a restart adding it again is a no-op. */
export const configAtJobId = (alias: string, at: number) => `cfg-at-${safe(alias)}-${at}`;
export const toolAtJobId = (id: string) => `tool-at-${safe(id)}`;
export const manualJobId = (id: string, nonce: string) => `run-${safe(id)}-${nonce}`;

/** The outbox idempotency key of a fire's delivery: one post per fire, however often it is processed. */
export const fireDeliveryKey = (fireId: string) => `cron:${fireId}`;

/** BullMQ's own cron parser (the one that will compute the fires): the reason an expression is invalid. */
export function cronExpressionError(expr: string, tz: string): string | null {
  try {
    return getNextMillis(Date.now(), { pattern: expr, tz }) === undefined ? 'it never fires' : null;
  } catch (err) {
    return errorMessage(err);
  }
}

/** Retries of a failed firing (subagents.md §11): BullMQ attempts with exponential backoff from 1 s. */
export function fireRetryOptions(schedulerRetries: number) {
  return {
    attempts: schedulerRetries + 1,
    backoff: { type: 'exponential' as const, delay: 1000 },
    removeOnComplete: { age: 24 * 60 * 60, count: 1000 },
    removeOnFail: { age: 7 * 24 * 60 * 60, count: 1000 },
  };
}
