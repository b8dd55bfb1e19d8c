// Sends a channel's outbox: chunking to the platform limit, per-chat pacing, retry_after, resumable chunks.
import { setTimeout as sleep } from 'node:timers/promises';
import { DelayedError, type Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { chunkText } from '../channel/chunking.ts';
import { type ChannelAdapter, ChannelRateLimitError } from '../channel/types.ts';
import type { Logger } from '../core/logger.ts';
import { closeWorker } from './close-worker.ts';
import { workerOptions } from './connection.ts';
import { outboxQueueName } from './names.ts';
import type { OutboxJob } from './outbox.ts';
import { createReplyOrderGate } from './reply-order.ts';

/** How often a reply whose predecessor has not left yet looks again. */
const ORDER_RECHECK_MS = 100;
const OUTBOX_CONCURRENCY = 16;

export interface OutboxWorkerOptions {
  adapter: ChannelAdapter;
  redis: Redis;
  redisUrl: string;
  prefix: string;
  logger: Logger;
  /** `reply_min_interval_secs` of the channel, in ms. */
  minIntervalMs: number;
}

/** Waits until this chat may receive another message, then claims the slot (one Redis SET NX PX per try). */
async function pace(redis: Redis, key: string, intervalMs: number): Promise<void> {
  if (intervalMs <= 0) return;
  for (;;) {
    if ((await redis.set(key, '1', 'PX', intervalMs, 'NX')) === 'OK') return;
    const ttl = await redis.pttl(key);
    await sleep(Math.max(ttl, 10));
  }
}

export function startOutboxWorker(opts: OutboxWorkerOptions): { close(): Promise<void> } {
  const { adapter, logger } = opts;
  const replyOrder = createReplyOrderGate(opts.redis, opts.prefix);
  // Several sends at once: a conversation's replies still leave in order (reply-order.ts), and per-chat pacing
  // is a Redis slot, so concurrency only overlaps different conversations' network waits.
  const worker: Worker<OutboxJob> = new Worker<OutboxJob>(
    outboxQueueName(adapter.key),
    async (job: Job<OutboxJob>, token?: string) => {
      const { order } = job.data;
      if (order) {
        const slot = await replyOrder.claim(order);
        if (slot === 'already_sent') return;
        if (slot === 'wait') {
          await job.moveToDelayed(Date.now() + ORDER_RECHECK_MS, token);
          throw new DelayedError();
        }
      }
      const chunks = chunkText(job.data.text, adapter.maxMessageLength);
      const done = typeof job.progress === 'number' ? job.progress : 0;
      const paceKey = `${opts.prefix}:pace:${adapter.key}:${job.data.to.chat}`;
      for (let i = done; i < chunks.length; i++) {
        await pace(opts.redis, paceKey, opts.minIntervalMs);
        try {
          await adapter.send(job.data.to, { text: chunks[i]! });
        } catch (err) {
          if (err instanceof ChannelRateLimitError) {
            logger.warn(
              { channel: adapter.key, retry_after_ms: err.retryAfterMs },
              'channel rate limited; pausing sends',
            );
            await worker.rateLimit(err.retryAfterMs);
            throw Worker.RateLimitError();
          }
          throw err;
        }
        // Resumable: a retry after a crash or failure sends only the chunks not yet sent.
        if (i + 1 < chunks.length) await job.updateProgress(i + 1);
      }
      if (order) await replyOrder.markSent(order);
    },
    // A short lock: a send whose completion was lost (e.g. Redis restarted mid-job) is retried within
    // seconds; the progress counter makes that retry skip the chunks already delivered.
    {
      ...workerOptions(opts.redisUrl, opts.prefix, OUTBOX_CONCURRENCY),
      lockDuration: 5000,
      stalledInterval: 2500,
      maxStalledCount: 100,
    },
  );
  worker.on('failed', (job, err) => {
    logger.warn({ channel: adapter.key, job_id: job?.id, err: err.message }, 'outbox send failed');
    const order = job?.data.order;
    if (job && order && job.attemptsMade >= (job.opts.attempts ?? 1)) {
      // Given up: let the conversation's later replies leave rather than hold them forever.
      logger.error({ channel: adapter.key, job_id: job.id }, 'reply dropped after its last attempt');
      replyOrder.markSent(order).catch(() => {});
    }
  });
  worker.on('error', (err) => logger.warn({ err: err.message }, 'outbox worker error'));
  return { close: () => closeWorker(worker) };
}
