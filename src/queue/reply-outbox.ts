// The outbox producer: replies and approval card requests go to the channel's Redis stream, replies once per
// idempotency key. A stream rather than a BullMQ job per reply: the gateway reads replies in batches (one round
// trip for many), a turn's reply is queued in the same script that settles its event, and the stream keeps order.
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { OutboundMessage, OutboxWriter, Recipient, ReplyOrder } from '../channel-host/types.ts';
import type { KeySpace } from '../core/key-layout.ts';
import { loadRedisScript } from '../core/redis-script.ts';
import { outboxStreamKey, recipientConversation, replyIdempotencyKey } from './names.ts';
import { type NewOutboxEntry, outboxEntryArgs } from './outbox-entry.ts';

const enqueueScript = loadRedisScript(join(import.meta.dirname, 'lua', 'enqueue-reply-2.lua'));

/** A queued reply is recognised this long, so a redelivered turn that replies again is dropped. */
export const REPLY_IDEMPOTENCY_TTL_SECS = 24 * 60 * 60;

/**
 * Queues one entry. With an idempotency key, a repeat of the key is dropped; without one (card requests: each is
 * its own, an edit may follow a post of the same card) it is always queued.
 */
export async function enqueueOutboxEntry(
  redis: Redis,
  space: KeySpace,
  entry: NewOutboxEntry,
  idempotencyKey?: string,
): Promise<void> {
  // The stream of the conversation's partition: its order's (the last-sent mark is moved with the stream's ack),
  // else the recipient's.
  const conversation = ('order' in entry && entry.order?.conversation) || recipientConversation(entry.to);
  await enqueueScript(
    redis,
    [
      replyIdempotencyKey(space, conversation, idempotencyKey ?? ''),
      outboxStreamKey(space, entry.to.channel, conversation),
    ],
    [idempotencyKey === undefined ? 0 : REPLY_IDEMPOTENCY_TTL_SECS, ...outboxEntryArgs(entry)],
  );
}

/** `redact` is the last line of defence for every reply, card and cron delivery queued here. */
export function createReplyOutbox(
  redis: Redis,
  space: KeySpace,
  redact: (text: string) => string = (text) => text,
): OutboxWriter {
  return {
    async enqueue(to: Recipient, msg: OutboundMessage, idempotencyKey: string, order?: ReplyOrder, files?) {
      const entry = {
        to,
        text: redact(msg.text),
        ...(order ? { order } : {}),
        ...(files?.length ? { files: [...files] } : {}),
      };
      await enqueueOutboxEntry(redis, space, entry, idempotencyKey);
    },
  };
}
