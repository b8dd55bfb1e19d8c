// The channel contract: what adapters hand to the runtime (InboundEvent) and what they must send.
import { z } from 'zod';
import {
  type AttachmentKind,
  attachmentSchema,
  type OutboundFile,
  type OutboxFile,
} from '../media/attachment.ts';

/** `<type>.<alias>:<chat>:<thread>` (thread empty when none): the conversation's stable id. */
export function conversationId(channel: string, chat: string, thread?: string): string {
  return `${channel}:${chat}:${thread ?? ''}`;
}

/** The chat a conversation id names (the inverse of conversationId), or null when it is not one. */
export function conversationRecipient(conversation: string): Recipient | null {
  const first = conversation.indexOf(':');
  const last = conversation.lastIndexOf(':');
  if (first < 0 || last <= first) return null;
  const thread = conversation.slice(last + 1);
  const parsed = recipientSchema.safeParse({
    channel: conversation.slice(0, first),
    chat: conversation.slice(first + 1, last),
    ...(thread ? { thread } : {}),
  });
  return parsed.success ? parsed.data : null;
}

export const recipientSchema = z.object({
  /** Channel key `<type>.<alias>`. */
  channel: z.string().min(1),
  /** Native chat id (Telegram chat id, Discord channel id, Slack channel id, local chat name). */
  chat: z.string().min(1),
  thread: z.string().min(1).optional(),
});
export type Recipient = z.infer<typeof recipientSchema>;

export const inboundMessageSchema = z.object({
  kind: z.literal('message'),
  channel: z.string().min(1),
  /** The platform's id for this event; dedupe key together with the channel. */
  eventId: z.string().min(1),
  chat: z.string().min(1),
  thread: z.string().min(1).optional(),
  sender: z.object({ id: z.string().min(1), username: z.string().optional() }),
  /** The caption when the message carries files; may be '' then. */
  text: z.string(),
  /** Files sent with the message (media.md §1): adapters give `source`, the host replaces it by `blob`/`failed`. */
  attachments: z.array(attachmentSchema).max(50).optional(),
  /** Direct message (not a group, guild channel or Slack channel). */
  isDirect: z.boolean(),
  /** The bot was mentioned or replied to (mention_only). */
  addressedToBot: z.boolean().default(false),
  receivedAt: z.string(),
});
export type InboundMessage = z.infer<typeof inboundMessageSchema>;

/**
 * A press on one of the bot's buttons. `actionId` is the button's id as sent: data, never authority (whoever
 * handles it checks who pressed, where, and against Redis state).
 */
export const inboundActionSchema = z.object({
  kind: z.literal('action'),
  channel: z.string().min(1),
  eventId: z.string().min(1),
  chat: z.string().min(1),
  thread: z.string().min(1).optional(),
  sender: z.object({ id: z.string().min(1), username: z.string().optional() }),
  actionId: z.string().min(1),
  /** The button's `value` where the platform carries one beside the id (Slack); data, never authority. */
  value: z.string().min(1).optional(),
  /** The platform id of the message the button was on. */
  messageId: z.string().min(1),
  receivedAt: z.string(),
});
export type InboundAction = z.infer<typeof inboundActionSchema>;

export const inboundEventSchema = z.discriminatedUnion('kind', [inboundMessageSchema, inboundActionSchema]);
export type InboundEvent = z.infer<typeof inboundEventSchema>;

export type { AttachmentKind, OutboundFile };

/** Button ids fit every platform's callback data (Telegram: 64 bytes, Slack and Discord: more). */
export const BUTTON_ID_MAX_BYTES = 64;

export const buttonSchema = z.object({
  id: z
    .string()
    .min(1)
    .refine((id) => Buffer.byteLength(id) <= BUTTON_ID_MAX_BYTES, `at most ${BUTTON_ID_MAX_BYTES} bytes`),
  label: z.string().min(1),
  /** Colour where the platform has it: Slack has no `success` and shows it as `primary` (its green). */
  style: z.enum(['primary', 'success', 'danger']).optional(),
  /** Sent beside the id where the platform has a separate field (Slack `value`); others carry only the id. */
  value: z.string().min(1).max(2000).optional(),
});
export type Button = z.infer<typeof buttonSchema>;

export const outboundMessageSchema = z.object({
  /** Markdown (rendered by the adapter); plain text when `markup` is given. */
  text: z.string(),
  /**
   * The text already in the platform's own markup (Telegram HTML, Slack mrkdwn), sent as is; for messages built
   * for one platform (approval prompts). `text` is then the plain fallback (and Slack's notification text).
   * Adapters without such markup (Discord, local) send `text`.
   */
  markup: z.string().min(1).optional(),
  /** Rows of buttons under the message; absent or empty: none (on an edit: the buttons are removed). */
  buttons: z.array(z.array(buttonSchema)).optional(),
});
export type OutboundMessage = z.infer<typeof outboundMessageSchema>;

export interface MessageRef {
  channel: string;
  chat: string;
  messageId: string;
}

/** Why an event was not enqueued; an accepted event is `{ accepted: true }`. */
export type ReceiveResult =
  | {
      accepted: true;
      conversation: string;
      /**
       * For a button press: a short text for the presser alone (an approval's ack). The adapter shows it the
       * platform's way (Telegram callback answer, Discord ephemeral follow-up, Slack ephemeral message) or drops it.
       */
      notice?: string;
    }
  | {
      accepted: false;
      reason: 'invalid' | 'duplicate' | 'unauthorised' | 'no_agent' | 'not_addressed' | 'unhandled';
      detail?: string;
    };

export interface ChannelHost {
  receive(event: unknown): Promise<ReceiveResult>;
}

/** A platform rejected a send for now; retry after `retryAfterMs`. */
export class ChannelRateLimitError extends Error {
  override readonly name = 'ChannelRateLimitError';
  readonly retryAfterMs: number;
  constructor(retryAfterMs: number, message = `rate limited; retry after ${retryAfterMs} ms`) {
    super(message);
    this.retryAfterMs = retryAfterMs;
  }
}

export interface ChannelAdapter {
  /** Registry key `<type>.<alias>`, e.g. `telegram.ops`. */
  readonly key: string;
  /** Longest text one platform message may carry; longer replies are chunked. */
  readonly maxMessageLength: number;
  /**
   * The bot token allows one consumer at a time (Telegram polling, the Discord gateway): the adapter then runs
   * only in the gateway holding the channel's lease. Absent: decided by the channel type.
   */
  readonly singleConsumer?: boolean;
  start(host: ChannelHost): Promise<void>;
  stop(): Promise<void>;
  send(to: Recipient, msg: OutboundMessage): Promise<MessageRef>;
  /** Replaces a sent message's text and buttons (no buttons in `msg`: they are removed). */
  edit(ref: MessageRef, msg: OutboundMessage): Promise<void>;
  /**
   * The bytes of an inbound attachment (its `source`), through the platform's API with the bot's credentials.
   * Stops past `maxBytes`; a refusal, a missing file or a network failure is an AttachmentFetchError with the
   * reason the user line shows. Absent: the channel's files arrive as `not downloaded` lines.
   */
  download?(source: string, maxBytes: number, signal: AbortSignal): Promise<Uint8Array>;
  /** Largest file the platform lets a bot upload (media.md §2); absent: only `max_attachment_mb` applies. */
  readonly maxUploadBytes?: number;
  /** Sends a file to a chat (send_file); the caption goes with it where the platform allows. */
  sendFile?(to: Recipient, file: OutboundFile): Promise<MessageRef>;
  /** Deletes a message the bot sent, where the platform allows it (a preview its answer could not replace). */
  delete?(ref: MessageRef): Promise<void>;
  /**
   * Shows that the bot is working in this chat for a few seconds (the runtime repeats it while a turn runs).
   * A platform without such an indicator does nothing here: the adapter degrades, never the runtime.
   */
  typing(to: Recipient): Promise<void>;
  /**
   * Webhook endpoints this adapter serves on the gateway's HTTP server (e.g. Slack's HTTP mode). Asked once,
   * after start; the adapter authenticates each request itself (no bearer token applies to these paths).
   */
  routes?(): ChannelHttpRoute[];
}

/** A request to a channel route: lower-cased headers and the raw body (signatures are over the bytes). */
export interface ChannelHttpRequest {
  headers: Readonly<Record<string, string | undefined>>;
  body: Buffer;
}

export interface ChannelHttpResponse {
  status: number;
  /** An object is sent as JSON; a string as text/plain. */
  body?: string | Record<string, unknown>;
}

export interface ChannelHttpRoute {
  method: 'POST';
  /** Absolute path, e.g. `/slack/ops/events`. */
  path: string;
  /** Answers quickly (platforms time out in seconds): slow work continues after the response. */
  handle(req: ChannelHttpRequest): Promise<ChannelHttpResponse>;
}

/** Where button presses go (the approvals broker); the host only validates and forwards them. */
export interface ActionHandler {
  /** `notice`: what the presser alone is shown (see ReceiveResult). */
  // biome-ignore lint/suspicious/noConfusingVoidType: handlers that show nothing simply return
  handle(action: InboundAction): Promise<{ notice?: string } | void>;
  /**
   * A message that answers a pending approval (a token reply, approvals.md §12.5): true when it was consumed
   * (answered, never a turn). Asked before anything else applies to the message.
   */
  reply?(message: InboundMessage): Promise<boolean>;
}

/** A reply's place in its conversation: replies leave in this order even after failures. */
export interface ReplyOrder {
  conversation: string;
  seq: number;
}

/** Where workers put replies: the outbox of the channel that will send them (idempotent per key). */
export interface OutboxWriter {
  /** `files`: sent after the text (send_file, media.md §2). */
  enqueue(
    to: Recipient,
    msg: OutboundMessage,
    idempotencyKey: string,
    order?: ReplyOrder,
    files?: readonly OutboxFile[],
  ): Promise<void>;
}
