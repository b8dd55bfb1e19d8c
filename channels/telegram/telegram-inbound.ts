// Telegram update → baton InboundEvent: an allowlist of what becomes a turn or a button press; the rest is
// skipped with a reason (never thrown), and updates missing what a known kind needs are reported as malformed.
import { z } from 'zod';
import type { InboundAction, InboundMessage } from '../../src/channel-host/types.ts';
import { attachmentsOf } from './telegram-files.ts';

export interface BotIdentity {
  id: number;
  username: string;
}

const userSchema = z.object({ id: z.number().int(), is_bot: z.boolean(), username: z.string().optional() });
const chatSchema = z.object({ id: z.number().int(), type: z.string(), username: z.string().optional() });
const entitySchema = z.object({
  type: z.string(),
  offset: z.number().int().nonnegative(),
  length: z.number().int().nonnegative(),
  user: z.object({ id: z.number().int() }).optional(),
});
const messageSchema = z.looseObject({
  message_id: z.number().int(),
  chat: chatSchema,
  from: userSchema.optional(),
  sender_chat: chatSchema.optional(),
  text: z.string().optional(),
  caption: z.string().optional(),
  entities: z.array(entitySchema).optional(),
  caption_entities: z.array(entitySchema).optional(),
  message_thread_id: z.number().int().optional(),
  is_topic_message: z.boolean().optional(),
  reply_to_message: z.object({ from: z.object({ id: z.number().int() }).optional() }).optional(),
  // An odd album id only costs the grouping, never the message.
  media_group_id: z.string().min(1).max(256).optional().catch(undefined),
});
type TgMessage = z.infer<typeof messageSchema>;
const callbackSchema = z.object({
  id: z.string().min(1),
  from: userSchema,
  data: z.string().min(1),
  message: messageSchema.pick({
    message_id: true,
    chat: true,
    message_thread_id: true,
    is_topic_message: true,
  }),
});

export type ParsedUpdate =
  | { kind: 'message'; event: InboundMessage; album?: { id: string; messageId: number } }
  | { kind: 'action'; event: InboundAction; callbackId: string }
  | { kind: 'skip'; reason: string }
  | { kind: 'malformed'; detail: string };

const describe = (e: z.ZodError) =>
  e.issues.map((i) => `${i.path.join('.') || '(update)'}: ${i.message}`).join('; ');

/** A forum topic's id; replies in non-forum groups also carry message_thread_id but are not topics. */
const threadOf = (m: { is_topic_message?: boolean | undefined; message_thread_id?: number | undefined }) =>
  m.is_topic_message && m.message_thread_id !== undefined ? { thread: String(m.message_thread_id) } : {};

function addressedToBot(m: TgMessage, text: string, me: BotIdentity): boolean {
  if (m.reply_to_message?.from?.id === me.id) return true;
  const handle = `@${me.username}`.toLowerCase();
  return (m.entities ?? m.caption_entities ?? []).some((e) => {
    if (e.type === 'text_mention') return e.user?.id === me.id;
    const slice = text.slice(e.offset, e.offset + e.length).toLowerCase();
    if (e.type === 'mention') return slice === handle;
    return e.type === 'bot_command' && slice.endsWith(handle); // /status@this_bot
  });
}

function messageEvent(m: TgMessage, channel: string, me: BotIdentity): ParsedUpdate {
  const sender = m.from ?? m.sender_chat;
  if (!sender) return { kind: 'malformed', detail: 'message has neither from nor sender_chat' };
  if (m.from?.is_bot) return { kind: 'skip', reason: m.from.id === me.id ? 'own message' : 'from a bot' };
  // A file is a turn with or without its caption (media.md §1); the caption is the text.
  const attachments = m.text === undefined ? attachmentsOf(m, m.message_id) : [];
  const text = m.text ?? (attachments.length ? (m.caption ?? '') : undefined);
  if (text === undefined) return { kind: 'skip', reason: 'not a text message' };
  if (!attachments.length && !text.trim()) return { kind: 'skip', reason: 'empty text' };
  return {
    kind: 'message',
    ...(m.media_group_id !== undefined && attachments.length
      ? { album: { id: m.media_group_id, messageId: m.message_id } }
      : {}),
    event: {
      kind: 'message',
      channel,
      // Message ids are unique per chat and stable across redeliveries (update ids restart after idle weeks).
      eventId: `${m.chat.id}:${m.message_id}`,
      chat: String(m.chat.id),
      ...threadOf(m),
      sender: { id: String(sender.id), ...(sender.username ? { username: sender.username } : {}) },
      text,
      ...(attachments.length ? { attachments } : {}),
      isDirect: m.chat.type === 'private',
      addressedToBot: addressedToBot(m, m.text ?? m.caption ?? '', me),
      receivedAt: new Date().toISOString(),
    },
  };
}

export function parseUpdate(update: unknown, channel: string, me: BotIdentity): ParsedUpdate {
  if (typeof update !== 'object' || update === null) return { kind: 'malformed', detail: 'not an object' };
  const u = update as Record<string, unknown>;
  const body = u.message ?? u.channel_post;
  if (body !== undefined) {
    const parsed = messageSchema.safeParse(body);
    return parsed.success
      ? messageEvent(parsed.data, channel, me)
      : { kind: 'malformed', detail: describe(parsed.error) };
  }
  if (u.callback_query !== undefined) {
    const parsed = callbackSchema.safeParse(u.callback_query);
    if (!parsed.success) return { kind: 'malformed', detail: describe(parsed.error) };
    const q = parsed.data;
    return {
      kind: 'action',
      callbackId: q.id,
      event: {
        kind: 'action',
        channel,
        eventId: q.id,
        chat: String(q.message.chat.id),
        ...threadOf(q.message),
        sender: { id: String(q.from.id), ...(q.from.username ? { username: q.from.username } : {}) },
        actionId: q.data,
        messageId: String(q.message.message_id),
        receivedAt: new Date().toISOString(),
      },
    };
  }
  const kind = Object.keys(u).find((k) => k !== 'update_id') ?? 'empty update';
  return { kind: 'skip', reason: `update kind ${kind}` };
}
