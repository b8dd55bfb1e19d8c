// The outbox producer: replies go to the sending channel's Redis stream, once per idempotency key.
// A stream rather than a BullMQ job per reply: the gateway reads replies in batches (one round trip for
// many), a turn's reply is queued in the same script that settles its event, and the stream keeps order.
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { OutboundMessage, OutboxWriter, Recipient, ReplyOrder } from '../channel/types.ts';
import { loadRedisScript } from '../core/redis-script.ts';
import { outboxStreamKey, replyIdempotencyKey } from './names.ts';

const enqueueReply = loadRedisScript(join(import.meta.dirname, 'lua', 'enqueue-reply-2.lua'));

/** A queued reply is recognised this long, so a redelivered turn that replies again is dropped. */
export const REPLY_IDEMPOTENCY_TTL_SECS = 24 * 60 * 60;

/** `redact` is the last line of defence for every reply, card and cron delivery queued here. */
export function createReplyOutbox(
  redis: Redis,
  prefix: string,
  redact: (text: string) => string = (text) => text,
): OutboxWriter {
  return {
    async enqueue(to: Recipient, msg: OutboundMessage, idempotencyKey: string, order?: ReplyOrder) {
      await enqueueReply(
        redis,
        [replyIdempotencyKey(prefix, idempotencyKey), outboxStreamKey(prefix, to.channel)],
        [
          REPLY_IDEMPOTENCY_TTL_SECS,
          JSON.stringify(to),
          redact(msg.text),
          order?.conversation ?? '',
          order?.seq ?? '',
        ],
      );
    },
  };
}
