// Slack events → baton inbound events. Allowlist: plain user messages and file shares; everything else is skipped.
import { z } from 'zod';
import type { InboundAction, InboundMessage } from '../../src/channel-host/types.ts';
import { slackAttachments } from './files.ts';

export interface InboundContext {
  /** `slack.<alias>` */
  channelKey: string;
  botUserId: string;
  botId: string;
  threadReplies: boolean;
  /** Served channel ids; empty: all. Direct messages are always served. */
  channelIds: ReadonlySet<string>;
}

export type Mapped<T> = { ok: true; event: T } | { ok: false; reason: string; malformed: boolean };

const id = z.string().min(1);
const messageSchema = z.object({
  type: z.enum(['message', 'app_mention']),
  channel: id,
  user: id.optional(),
  text: z.string().optional(),
  ts: id,
  thread_ts: id.optional(),
  subtype: z.string().optional(),
  bot_id: z.string().optional(),
  channel_type: z.string().optional(),
  parent_user_id: z.string().optional(),
  // Malformed: read as no files (the words still count).
  files: z.array(z.unknown()).optional().catch(undefined),
});

/** Subtypes that carry a user's words; every other subtype (edits, deletes, joins, bots…) is skipped. */
const USER_SUBTYPES = new Set(['file_share']);

const skip = (reason: string, malformed = false) => ({ ok: false as const, reason, malformed });

/**
 * The event id is the message's place in its channel (`<channel>:<ts>`), not Slack's event_id: the `message`
 * and `app_mention` deliveries of one user message have different event_ids but the same channel and ts, and
 * a retried delivery repeats both, so the inbox dedupes all of them into one turn.
 */
export function messageEventId(channel: string, ts: string): string {
  return `${channel}:${ts}`;
}

export function mapMessage(raw: unknown, ctx: InboundContext): Mapped<InboundMessage> {
  const parsed = messageSchema.safeParse(raw);
  if (!parsed.success) return skip(`malformed ${describe(raw)} event`, true);
  const e = parsed.data;
  if (e.subtype && !USER_SUBTYPES.has(e.subtype)) return skip(`message subtype ${e.subtype}`);
  if (e.bot_id || !e.user) return skip('message from a bot');
  if (e.user === ctx.botUserId) return skip('own message');
  const isDirect = e.channel_type === 'im';
  if (!isDirect && ctx.channelIds.size > 0 && !ctx.channelIds.has(e.channel)) {
    return skip('channel not in channel_ids');
  }
  const mention = `<@${ctx.botUserId}>`;
  const words = unescapeText(e.text ?? '')
    .replace(new RegExp(`^\\s*${escapeRegExp(mention)}[\\s:,]*`), '')
    .trim();
  const attachments = slackAttachments(e.files);
  if (!words && attachments.length === 0) return skip('message without text');
  const addressedToBot =
    e.type === 'app_mention' || (e.text ?? '').includes(mention) || e.parent_user_id === ctx.botUserId;
  // DMs stay one conversation (a thread per DM message would split it); elsewhere thread_replies threads.
  const thread = ctx.threadReplies && !isDirect ? (e.thread_ts ?? e.ts) : e.thread_ts;
  return {
    ok: true,
    event: {
      kind: 'message',
      channel: ctx.channelKey,
      eventId: messageEventId(e.channel, e.ts),
      chat: e.channel,
      ...(thread ? { thread } : {}),
      sender: { id: e.user },
      text: words,
      ...(attachments.length > 0 ? { attachments } : {}),
      isDirect,
      addressedToBot,
      receivedAt: new Date().toISOString(),
    },
  };
}

const actionSchema = z.object({
  type: z.literal('block_actions'),
  trigger_id: z.string().optional(),
  user: z.object({ id, username: z.string().optional(), name: z.string().optional() }),
  container: z
    .object({ message_ts: id.optional(), channel_id: id.optional(), thread_ts: id.optional() })
    .optional(),
  channel: z.object({ id }).optional(),
  message: z.object({ ts: id, thread_ts: id.optional() }).optional(),
  actions: z
    .array(z.object({ action_id: id, value: z.string().optional(), action_ts: z.string().optional() }))
    .min(1),
});

export function mapAction(raw: unknown, ctx: InboundContext): Mapped<InboundAction> {
  const parsed = actionSchema.safeParse(raw);
  if (!parsed.success) return skip(`malformed ${describe(raw)} interaction`, true);
  const p = parsed.data;
  const action = p.actions[0]!;
  const chat = p.container?.channel_id ?? p.channel?.id;
  const messageId = p.container?.message_ts ?? p.message?.ts;
  if (!chat || !messageId) return skip('button press without its message', true);
  const thread = p.message?.thread_ts ?? p.container?.thread_ts;
  const username = p.user.username ?? p.user.name;
  return {
    ok: true,
    event: {
      kind: 'action',
      channel: ctx.channelKey,
      eventId: p.trigger_id ?? `${messageId}:${action.action_ts ?? ''}`,
      chat,
      ...(thread ? { thread } : {}),
      sender: { id: p.user.id, ...(username ? { username } : {}) },
      actionId: action.action_id,
      ...(action.value ? { value: action.value } : {}),
      messageId,
      receivedAt: new Date().toISOString(),
    },
  };
}

/** Slack escapes these three in message text. */
export function unescapeText(text: string): string {
  return text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function describe(raw: unknown): string {
  const type = raw && typeof raw === 'object' ? (raw as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? type.slice(0, 40) : 'untyped';
}
