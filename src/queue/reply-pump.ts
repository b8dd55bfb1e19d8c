// Sends a channel's outbox: batched stream reads, per-conversation order, chunking, pacing, retry_after,
// retries with backoff, resumable chunks, and takeover of replies a crashed gateway left unsent.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { chunkMarkdown } from '../channel/markdown/chunk.ts';
import { type ChannelAdapter, ChannelRateLimitError, type Recipient } from '../channel/types.ts';
import type { MetricsStore } from '../control-plane/metrics-store.ts';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { createRedis } from '../core/redis.ts';
import {
  type ApprovalCardRequest,
  createOutboxStream,
  isNoGroupError,
  type OutboxEntry,
} from './outbox-stream.ts';
import { createLanes } from './reply-lanes.ts';
import { createReplyOrderGate } from './reply-order.ts';

const READ_COUNT = 128;
const READ_BLOCK_MS = 1000;
/** Entries read but not yet sent; reading pauses above this. */
const MAX_IN_FLIGHT = 512;
const SEND_CONCURRENCY = 16;
/** Live consumers touch their entries every keepAliveMs; untouched for minIdleMs means the consumer died. */
const DEFAULT_TIMINGS: PumpTimings = {
  keepAliveMs: 2000,
  minIdleMs: 6000,
  pruneEveryMs: 10 * 60_000,
  pruneIdleMs: 60 * 60_000,
  maxAttempts: 8,
  backoffMs: 1000,
};
/** How often a reply whose predecessor has not left yet looks again. */
const ORDER_RECHECK_MS = 100;

export interface ReplyPumpOptions {
  adapter: ChannelAdapter;
  /** Command connection (auto-pipelined); the pump opens its own blocking reader from `redisUrl`. */
  redis: Redis;
  redisUrl: string;
  prefix: string;
  logger: Logger;
  /** This gateway's consumer name in the channel's group. */
  consumer: string;
  /** `reply_min_interval_secs` of the channel, in ms. */
  minIntervalMs: number;
  /** Counts each send's outcome in the fleet metrics. */
  metrics?: Pick<MetricsStore, 'countOutbox'>;
  /** Overrides for tests: takeover and retry timings. */
  timings?: Partial<PumpTimings>;
  /** Last line of defence before the platform: known secret values are replaced (before chunking). */
  redact?: (text: string) => string;
  /** Posts and edits approval cards (the gateway's courier); absent: such requests are logged and dropped. */
  approvals?: ApprovalCardHandler;
}

export interface ApprovalCardHandler {
  /** Never throws for a platform failure (it marks the approval undeliverable instead). */
  handle(req: ApprovalCardRequest, to: Recipient, adapter: ChannelAdapter): Promise<void>;
}

export interface PumpTimings {
  keepAliveMs: number;
  minIdleMs: number;
  /** How often, and after how long idle, consumers of stopped gateways are forgotten. */
  pruneEveryMs: number;
  pruneIdleMs: number;
  maxAttempts: number;
  backoffMs: number;
}

export interface ReplyPump {
  /** Stops reading; sends under way finish (bounded), unsent replies stay queued for the next gateway. */
  close(): Promise<void>;
}

/** Waits until this chat may receive another message, then claims the slot (one Redis SET NX PX per try). */
async function pace(redis: Redis, key: string, intervalMs: number, signal: AbortSignal): Promise<void> {
  if (intervalMs <= 0) return;
  while (!signal.aborted) {
    if ((await redis.set(key, '1', 'PX', intervalMs, 'NX')) === 'OK') return;
    const ttl = await redis.pttl(key);
    await sleep(Math.max(ttl, 10), undefined, { signal }).catch(() => {});
  }
}

function createSemaphore(limit: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (active >= limit) await new Promise<void>((r) => waiting.push(r));
    active++;
    try {
      return await fn();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

export function startReplyPump(opts: ReplyPumpOptions): ReplyPump {
  const { adapter, logger, redis } = opts;
  const t: PumpTimings = { ...DEFAULT_TIMINGS, ...opts.timings };
  const stream = createOutboxStream(redis, opts.prefix, adapter.key, opts.consumer, logger);
  const order = createReplyOrderGate(redis, opts.prefix, logger);
  const reader = createRedis(opts.redisUrl);
  reader.on('error', () => {}); // ioredis reconnects; the read loop waits
  const stop = new AbortController();
  const pause = (ms: number) => sleep(ms, undefined, { signal: stop.signal }).catch(() => {});
  const limit = createSemaphore(SEND_CONCURRENCY);
  const inFlight = new Set<string>();
  /** Last sequence this process sent per conversation: the next one needs no Redis check. */
  const lastSent = new Map<string, number>();
  let pausedUntil = 0;
  let roomForMore: (() => void) | null = null;

  /** Whether an ordered entry may leave now, was already sent, or must wait for its predecessor. */
  async function turnOf(entry: OutboxEntry): Promise<'send' | 'already_sent' | 'wait'> {
    if (!entry.order) return 'send';
    const { conversation, seq } = entry.order;
    const known = lastSent.get(conversation);
    if (known !== undefined && seq === known + 1) return 'send';
    if (known !== undefined && seq <= known) return 'already_sent';
    return order.claim(entry.order);
  }

  /** Sends every chunk not yet sent; false when stopping (the entry stays queued). */
  async function sendChunks(entry: OutboxEntry): Promise<{ done: boolean; progressSaved: boolean }> {
    // Redacted before chunking, so a secret cannot straddle two chunks; deterministic, so resumes line up.
    const chunks = chunkMarkdown(
      opts.redact ? opts.redact(entry.text) : entry.text,
      adapter.maxMessageLength,
    );
    const paceKey = `${opts.prefix}:pace:${adapter.key}:${entry.to.chat}`;
    let sent = await stream.progress(entry);
    let attempts = 0;
    let progressSaved = false;
    while (sent < chunks.length) {
      if (stop.signal.aborted) return { done: false, progressSaved };
      if (Date.now() < pausedUntil) {
        await pause(pausedUntil - Date.now());
        continue;
      }
      await pace(redis, paceKey, opts.minIntervalMs, stop.signal);
      try {
        await limit(() => adapter.send(entry.to, { text: chunks[sent]! }));
        opts.metrics?.countOutbox(adapter.key, 'sent');
        sent++;
        // Resumable: whoever retries this entry after a crash sends only the chunks not yet sent.
        if (sent < chunks.length) {
          await stream.saveProgress(entry, sent);
          progressSaved = true;
        }
      } catch (err) {
        if (err instanceof ChannelRateLimitError) {
          opts.metrics?.countOutbox(adapter.key, 'rate_limited');
          logger.warn(
            { channel: adapter.key, retry_after_ms: err.retryAfterMs },
            'channel rate limited; pausing sends',
          );
          pausedUntil = Math.max(pausedUntil, Date.now() + err.retryAfterMs);
          continue;
        }
        attempts++;
        opts.metrics?.countOutbox(adapter.key, 'failed');
        logger.warn(
          { channel: adapter.key, entry_id: entry.id, err: errorMessage(err) },
          'outbox send failed',
        );
        if (attempts >= t.maxAttempts) {
          // Given up: the conversation's later replies leave rather than wait forever.
          opts.metrics?.countOutbox(adapter.key, 'dropped');
          logger.error({ channel: adapter.key, entry_id: entry.id }, 'reply dropped after its last attempt');
          break;
        }
        await pause(t.backoffMs * 2 ** (attempts - 1));
      }
    }
    return { done: true, progressSaved };
  }

  async function deliverApproval(entry: OutboxEntry, req: ApprovalCardRequest): Promise<'done'> {
    if (opts.approvals) {
      await opts.approvals.handle(req, entry.to, adapter).catch((err: unknown) => {
        logger.warn(
          { channel: adapter.key, approval_id: req.approvalId, err: errorMessage(err) },
          'approval card request failed',
        );
      });
    } else {
      logger.warn({ channel: adapter.key, approval_id: req.approvalId }, 'approval card request dropped');
    }
    await stream.ack(entry, false);
    return 'done';
  }

  async function deliver(entry: OutboxEntry): Promise<'done' | 'wait'> {
    if (entry.approval) return deliverApproval(entry, entry.approval);
    const turn = await turnOf(entry);
    if (turn === 'wait') return 'wait';
    if (entry.malformed) {
      // Dropped only in its turn: acking it moves the conversation's mark past its sequence.
      logger.error(
        { channel: adapter.key, entry_id: entry.id, reason: entry.malformed, ...entry.order },
        'unreadable outbox entry dropped',
      );
    }
    const { done, progressSaved } =
      turn === 'send' && !entry.malformed ? await sendChunks(entry) : { done: true, progressSaved: false };
    if (!done) return 'done'; // stopping: the entry stays queued for whoever reclaims it
    await stream.ack(entry, progressSaved);
    if (entry.order) {
      const { conversation, seq } = entry.order;
      lastSent.set(conversation, Math.max(seq, lastSent.get(conversation) ?? 0));
    }
    if (lastSent.size > 50_000) lastSent.clear(); // only a cache: the Redis mark is the record
    return 'done';
  }

  const lanes = createLanes<OutboxEntry>({
    // An approval's post and edit share a lane of their own: in order, and never behind a conversation's replies.
    laneOf: (e) =>
      e.approval
        ? `approval:${e.approval.approvalId}`
        : (e.order?.conversation ?? `${e.to.chat}:${e.to.thread ?? ''}`),
    rankOf: (e) => e.order?.seq,
    process: deliver,
    settled: (e) => {
      inFlight.delete(e.id);
      if (inFlight.size < MAX_IN_FLIGHT) roomForMore?.();
    },
    onError: (err) => logger.warn({ channel: adapter.key, err: errorMessage(err) }, 'outbox delivery failed'),
    waitMs: ORDER_RECHECK_MS,
    signal: stop.signal,
  });

  function dispatch(entry: OutboxEntry): void {
    if (inFlight.has(entry.id)) return;
    inFlight.add(entry.id);
    lanes.add(entry);
  }

  async function readLoop(): Promise<void> {
    while (!stop.signal.aborted) {
      if (inFlight.size >= MAX_IN_FLIGHT) {
        await new Promise<void>((r) => {
          roomForMore = r;
        });
        roomForMore = null;
        continue;
      }
      try {
        for (const entry of await stream.read(reader, READ_COUNT, READ_BLOCK_MS)) dispatch(entry);
      } catch (err) {
        if (stop.signal.aborted) return;
        if (isNoGroupError(err)) await stream.ensureGroup().catch(() => {});
        else logger.warn({ channel: adapter.key, err: errorMessage(err) }, 'outbox read failed');
        await pause(200);
      }
    }
  }

  let lastPrune = 0;
  async function keepAliveAndReclaim(): Promise<void> {
    await stream.touch([...inFlight]);
    const room = MAX_IN_FLIGHT - inFlight.size;
    if (room > 0) for (const entry of await stream.reclaim(t.minIdleMs, room)) dispatch(entry);
    // Every gateway start adds a consumer name; the ones of stopped gateways go once they hold nothing.
    if (Date.now() - lastPrune > t.pruneEveryMs) {
      lastPrune = Date.now();
      await stream.pruneConsumers(t.pruneIdleMs);
    }
  }

  const reading = stream
    .ensureGroup()
    .catch(() => {}) // the read loop recreates it on NOGROUP
    .then(readLoop);
  let ticking = false; // during a Redis outage a tick waits; later ticks must not pile up behind it
  const timer = setInterval(() => {
    if (ticking) return;
    ticking = true;
    keepAliveAndReclaim()
      .catch((err: unknown) =>
        logger.warn({ channel: adapter.key, err: errorMessage(err) }, 'outbox reclaim failed'),
      )
      .finally(() => {
        ticking = false;
      });
  }, t.keepAliveMs);
  timer.unref();

  return {
    async close() {
      stop.abort();
      clearInterval(timer);
      roomForMore?.();
      reader.disconnect();
      const bounded = (p: Promise<unknown>) => Promise.race([p, sleep(5000, undefined, { ref: false })]);
      await bounded(Promise.all([reading, lanes.idle()]));
    },
  };
}
