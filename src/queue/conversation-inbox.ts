// Per-conversation inboxes in Redis: arrival order is the list order; the head stays until its turn settles.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Recipient } from '../channel/types.ts';
import { inboundMessageSchema } from '../channel/types.ts';
import { runningTurnsKey } from '../control-plane/running-turns.ts';
import { loadRedisScript } from '../core/redis-script.ts';
import { outboxStreamKey, replyIdempotencyKey } from './names.ts';
import { REPLY_IDEMPOTENCY_TTL_SECS } from './reply-outbox.ts';

const ingestEvent = loadRedisScript(join(import.meta.dirname, 'lua', 'ingest-event-5.lua'));
const settleWithReply = loadRedisScript(join(import.meta.dirname, 'lua', 'settle-event-with-reply-5.lua'));

/** An accepted message with the agent the host routed it to and its place in the conversation. */
export const queuedMessageSchema = inboundMessageSchema.extend({
  agent: z.string().min(1),
  seq: z.number().int(),
});
export type QueuedMessage = z.infer<typeof queuedMessageSchema>;

/** Conversation counters outlive any plausible gap between two messages of one conversation. */
const SEQUENCE_TTL_SECS = 30 * 24 * 60 * 60;

/** The key holding the last reply sequence sent in a conversation (see reply-order.ts). */
export const replySentKey = (prefix: string, conversation: string) => `${prefix}:reply-sent:${conversation}`;

/** Long enough to absorb platform redeliveries (Slack retries, Telegram offsets, webhook replays). */
export const DEDUPE_TTL_SECS = 24 * 60 * 60;

/**
 * `first`: the inbox was empty, so the conversation needs a drain job; `queued`: behind events that the
 * conversation's drain job will reach; `duplicate`: this platform event was already accepted.
 */
export type AcceptResult = 'first' | 'queued' | 'duplicate';

/** A settled turn's reply, queued in the same step that removes its event. */
export interface SettledReply {
  to: Recipient;
  text: string;
  idempotencyKey: string;
}

export interface ConversationInbox {
  accept(conversation: string, event: Omit<QueuedMessage, 'seq'>): Promise<AcceptResult>;
  head(conversation: string): Promise<QueuedMessage | null>;
  /**
   * Queues the reply, drops the head if it is `event` and clears its running mark; returns the next head,
   * if any, marked as running on `nextRunsOn` (a worker id) unless that is null.
   */
  settle(
    conversation: string,
    event: QueuedMessage,
    reply: SettledReply,
    nextRunsOn: string | null,
  ): Promise<QueuedMessage | null>;
  pending(conversation: string): Promise<number>;
  /** Conversations that have events waiting (for the sweeper). */
  activeConversations(): Promise<string[]>;
}

/** BullMQ job ids may not contain ':'; conversation ids do, so jobs use a digest. */
export function conversationJobId(conversation: string): string {
  return `conv-${createHash('sha1').update(conversation).digest('hex')}`;
}

/** A turn's id: the platform event it answers (history and reply idempotency key). */
export function turnIdOf(event: Pick<QueuedMessage, 'channel' | 'eventId'>): string {
  return `${event.channel}:${event.eventId}`;
}

function parseEvent(raw: string | null): QueuedMessage | null {
  return raw === null ? null : queuedMessageSchema.parse(JSON.parse(raw));
}

export function createConversationInbox(redis: Redis, prefix: string): ConversationInbox {
  const inboxKey = (c: string) => `${prefix}:inbox:${c}`;
  const activeKey = `${prefix}:inbox-active`;
  return {
    async accept(conversation, event) {
      const dedupe = `${prefix}:dedupe:${event.channel}:${event.eventId}`;
      const res = await ingestEvent(
        redis,
        [
          dedupe,
          inboxKey(conversation),
          activeKey,
          `${prefix}:conv-seq:${conversation}`,
          replySentKey(prefix, conversation),
        ],
        [DEDUPE_TTL_SECS, JSON.stringify(event), conversation, SEQUENCE_TTL_SECS],
      );
      const length = Number(res);
      return length === 0 ? 'duplicate' : length === 1 ? 'first' : 'queued';
    },
    async head(conversation) {
      return parseEvent(await redis.lindex(inboxKey(conversation), 0));
    },
    async settle(conversation, event, reply, nextRunsOn) {
      const [, next] = (await settleWithReply(
        redis,
        [
          inboxKey(conversation),
          activeKey,
          replyIdempotencyKey(prefix, reply.idempotencyKey),
          outboxStreamKey(prefix, reply.to.channel),
          runningTurnsKey(prefix),
        ],
        [
          event.eventId,
          conversation,
          REPLY_IDEMPOTENCY_TTL_SECS,
          JSON.stringify(reply.to),
          reply.text,
          event.seq,
          turnIdOf(event),
          nextRunsOn ?? '',
        ],
      )) as [number, string];
      return parseEvent(next === '' ? null : next);
    },
    pending: (conversation) => redis.llen(inboxKey(conversation)),
    activeConversations: () => redis.smembers(activeKey),
  };
}
