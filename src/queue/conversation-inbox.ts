// Per-conversation inboxes in Redis: arrival order is the list order; the head stays until its turn settles.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { inboundMessageSchema } from '../channel/types.ts';
import { loadRedisScript } from '../core/redis-script.ts';

const ingestEvent = loadRedisScript(join(import.meta.dirname, 'lua', 'ingest-event-5.lua'));
const settleEvent = loadRedisScript(join(import.meta.dirname, 'lua', 'settle-event-2.lua'));

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

export interface ConversationInbox {
  /** False when this platform event was already accepted. */
  accept(conversation: string, event: Omit<QueuedMessage, 'seq'>): Promise<boolean>;
  head(conversation: string): Promise<QueuedMessage | null>;
  /** Drops the head if it is `eventId`; returns how many events are left. */
  settle(conversation: string, eventId: string): Promise<number>;
  pending(conversation: string): Promise<number>;
  /** Conversations that have events waiting (for the sweeper). */
  activeConversations(): Promise<string[]>;
}

/** BullMQ job ids may not contain ':'; conversation ids do, so jobs use a digest. */
export function conversationJobId(conversation: string): string {
  return `conv-${createHash('sha1').update(conversation).digest('hex')}`;
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
      return Number(res) > 0;
    },
    async head(conversation) {
      const raw = await redis.lindex(inboxKey(conversation), 0);
      return raw === null ? null : queuedMessageSchema.parse(JSON.parse(raw));
    },
    async settle(conversation, eventId) {
      return Number(await settleEvent(redis, [inboxKey(conversation), activeKey], [eventId, conversation]));
    },
    pending: (conversation) => redis.llen(inboxKey(conversation)),
    activeConversations: () => redis.smembers(activeKey),
  };
}
