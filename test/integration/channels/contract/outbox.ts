// The reply path that chunks and retries: a real outbox stream on Redis and the reply pump sending through the
// adapter, with every send's outcome recorded (the adapter's side of the contract, seen by its caller).
import type { Redis } from 'ioredis';
import {
  type ChannelAdapter,
  ChannelRateLimitError,
  type OutboundMessage,
  type Recipient,
} from '../../../../src/channel-host/types.ts';
import { createSilentLogger } from '../../../../src/core/logger.ts';
import { createReplyOutbox } from '../../../../src/queue/reply-outbox.ts';
import { startReplyPump } from '../../../../src/queue/reply-pump.ts';
import { spaceOf } from '../../../helpers/key-space.ts';
import { REDIS_URL } from '../../../helpers/redis.ts';

export type SendOutcome =
  | { ok: true; text: string; at: number }
  | { ok: false; text: string; at: number; rateLimitMs?: number; error: unknown };

export interface OutboxRun {
  readonly outcomes: SendOutcome[];
  enqueue(to: Recipient, msg: OutboundMessage, key: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts a pump for `adapter` on `prefix`; close it at the end of the test. */
export function startOutbox(adapter: ChannelAdapter, redis: Redis, prefix: string): OutboxRun {
  const outcomes: SendOutcome[] = [];
  const recorded: ChannelAdapter = {
    key: adapter.key,
    maxMessageLength: adapter.maxMessageLength,
    start: (h) => adapter.start(h),
    stop: () => adapter.stop(),
    edit: (ref, msg) => adapter.edit(ref, msg),
    typing: (to) => adapter.typing(to),
    async send(to, msg) {
      try {
        const ref = await adapter.send(to, msg);
        outcomes.push({ ok: true, text: msg.text, at: Date.now() });
        return ref;
      } catch (error) {
        const rateLimitMs = error instanceof ChannelRateLimitError ? error.retryAfterMs : undefined;
        outcomes.push({
          ok: false,
          text: msg.text,
          at: Date.now(),
          error,
          ...(rateLimitMs !== undefined ? { rateLimitMs } : {}),
        });
        throw error;
      }
    },
  };
  const outbox = createReplyOutbox(redis, spaceOf(prefix));
  const pump = startReplyPump({
    adapter: recorded,
    redis,
    redisTarget: { url: REDIS_URL },
    space: spaceOf(prefix),
    logger: createSilentLogger(),
    consumer: 'contract',
    minIntervalMs: 0,
    timings: { backoffMs: 100 },
  });
  return {
    outcomes,
    enqueue: (to, msg, key) => outbox.enqueue(to, msg, key),
    close: () => pump.close(),
  };
}
