// Parses cron_add's model-facing input into a schedule and a delivery target.
import { z } from 'zod';
import type { Recipient } from '../../channel-host/types.ts';
import type { CronSchedule } from '../../config/types.ts';
import { cronTexts } from '../../cron/cron-messages.ts';
import type { RunContext } from '../../run-contract/run-context.ts';
import { allowedDeliveryChats, isAllowedDelivery } from './delivery-authority.ts';

const scheduleInput = z.union([
  z.string(),
  z.object({ kind: z.literal('cron'), expr: z.string(), tz: z.string().optional() }),
  z.object({ kind: z.literal('every'), every_ms: z.number() }),
  z.object({ kind: z.literal('at'), at: z.string() }),
]);

export const cronAddInput = z.object({
  name: z.string().optional(),
  schedule: scheduleInput,
  prompt: z.string().refine((p) => p.trim() !== '', { message: 'must not be empty' }),
  tz: z.string().optional(),
  delivery: z
    .object({
      channel: z.string().min(1),
      recipient: z.string().min(1),
      thread: z.string().min(1).optional(),
    })
    .optional(),
});
export type CronAddInput = z.infer<typeof cronAddInput>;

export const CRON_ADD_PARAMETERS = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'Short display name of the job' },
    schedule: {
      description:
        'A 5-field cron expression such as "0 9 * * 1-5", or {"kind":"cron","expr":"0 9 * * *","tz":"Europe/Paris"}, {"kind":"every","every_ms":3600000} or {"kind":"at","at":"2030-01-31T09:00:00Z"} (one-off)',
      oneOf: [
        { type: 'string' },
        {
          type: 'object',
          properties: {
            kind: { type: 'string', enum: ['cron', 'every', 'at'] },
            expr: { type: 'string' },
            tz: { type: 'string' },
            every_ms: { type: 'integer' },
            at: { type: 'string' },
          },
          required: ['kind'],
        },
      ],
    },
    prompt: {
      type: 'string',
      description: 'What the agent should do at each run; the answer is posted to the chat',
    },
    tz: { type: 'string', description: 'IANA time zone of a cron expression (default UTC)' },
    delivery: {
      type: 'object',
      description:
        'Where results go; defaults to the chat this conversation is in. Only this chat or a chat the config declares for this agent is accepted',
      properties: { channel: { type: 'string' }, recipient: { type: 'string' }, thread: { type: 'string' } },
      required: ['channel', 'recipient'],
    },
  },
  required: ['schedule', 'prompt'],
};

export function scheduleOf(input: CronAddInput): CronSchedule {
  const s = input.schedule;
  if (typeof s === 'string') return { kind: 'cron', expr: s.trim(), tz: input.tz ?? 'UTC' };
  if (s.kind === 'cron') return { kind: 'cron', expr: s.expr.trim(), tz: s.tz ?? input.tz ?? 'UTC' };
  return s;
}

/**
 * Channel-triggered cron: results go to the chat the job was created from. An explicit delivery must name a chat
 * the run has authority over (delivery-authority.ts), so a model cannot post into any chat the bot is in.
 */
export function deliveryOf(run: RunContext, input: CronAddInput): Recipient | string {
  const d = input.delivery;
  if (!d) return run.origin ?? cronTexts.noDelivery();
  const to: Recipient = {
    channel: d.channel.trim(),
    chat: d.recipient.trim(),
    ...(d.thread?.trim() ? { thread: d.thread.trim() } : {}),
  };
  const allowed = allowedDeliveryChats(run.services.config, run.agentAlias, run.origin);
  if (!isAllowedDelivery(allowed, to)) {
    return cronTexts.foreignRecipient(describeRecipient(to), allowed.map(describeRecipient));
  }
  return to;
}

export const describeRecipient = (r: Recipient) => `${r.channel}:${r.chat}${r.thread ? `:${r.thread}` : ''}`;
