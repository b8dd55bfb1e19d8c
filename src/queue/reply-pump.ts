// Sends a channel's outbox: the reader (batched stream reads, bounded in flight), per-conversation order through
// lanes, the sender (reply-sender.ts: chunking, pacing, retry_after, retries, resumable chunks) and the keeper
// (outbox-keeper.ts: keep-alive and takeover of replies a crashed gateway left unsent).
// The channel has one outbox stream per partition (spec/config.md §15.1.1): each gets its own blocking reader and
// keeper, so a reply waits for no poll whatever the partition count (a blocking XREADGROUP over several streams is
// a multi-slot command on a Cluster). Sending, pacing and the order lanes are shared: a conversation, and so each
// of its lanes, lives in exactly one partition.

import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { ChannelAdapter, Recipient } from '../channel-host/types.ts';
import { errorMessage } from '../core/errors.ts';
import { allPartitions, type KeySpace } from '../core/key-layout.ts';
import type { Logger } from '../core/logger.ts';
import { createRedis } from '../core/redis.ts';
import type { RedisTarget } from '../core/redis-target.ts';
import type { MetricsStore } from '../fleet/metrics-store.ts';
import { createLiveSlots } from './live-slots.ts';
import type { ApprovalCardRequest, OutboxEntry } from './outbox-entry.ts';
import { startOutboxKeeper } from './outbox-keeper.ts';
import { createOutboxStream, isNoGroupError, type OutboxStream } from './outbox-stream.ts';
import { createLanes } from './reply-lanes.ts';
import { createReplyOrderGate } from './reply-order.ts';
import { createReplySender } from './reply-sender.ts';

const READ_COUNT = 128;
const READ_BLOCK_MS = 1000;
/** Entries read but not yet sent (over all partitions); reading pauses above this. */
const MAX_IN_FLIGHT = 512;
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
  /** Command connection (a tick's commands in one write); the pump opens its own blocking reader from `redisTarget`. */
  redis: Redis;
  redisTarget: RedisTarget;
  space: KeySpace;
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

export function startReplyPump(opts: ReplyPumpOptions): ReplyPump {
  const { adapter, logger, redis } = opts;
  const t: PumpTimings = { ...DEFAULT_TIMINGS, ...opts.timings };
  const parts = allPartitions(opts.space).map((n) => ({
    n,
    stream: createOutboxStream(redis, opts.space, adapter.key, n, opts.consumer, logger),
    /** A connection only this partition's read loop uses (its reads block). */
    reader: createRedis(opts.redisTarget),
    /** Ids of this partition's entries read and not yet settled. */
    inFlight: new Set<string>(),
  }));
  for (const p of parts) p.reader.on('error', () => {}); // ioredis reconnects; the read loop waits
  const partOf = (entry: OutboxEntry) => parts[entry.partition] ?? parts[0]!;
  /** Each entry's own stream: progress and ack go to the partition it was read from. */
  const stream: Pick<OutboxStream, 'ack' | 'progress' | 'saveProgress'> = {
    ack: (entry, saved) => partOf(entry).stream.ack(entry, saved),
    progress: (entry) => partOf(entry).stream.progress(entry),
    saveProgress: (entry, n) => partOf(entry).stream.saveProgress(entry, n),
  };
  const order = createReplyOrderGate(redis, opts.space, logger);
  const stop = new AbortController();
  const pause = (ms: number) => sleep(ms, undefined, { signal: stop.signal }).catch(() => {});
  const sender = createReplySender({
    adapter,
    redis,
    prefix: opts.space.prefix,
    logger,
    stream,
    minIntervalMs: opts.minIntervalMs,
    maxAttempts: t.maxAttempts,
    backoffMs: t.backoffMs,
    metrics: opts.metrics,
    redact: opts.redact,
    signal: stop.signal,
    slots: createLiveSlots(redis, opts.space, logger),
  });
  let inFlightCount = 0;
  /** Last sequence this process sent per conversation: the next one needs no Redis check. */
  const lastSent = new Map<string, number>();
  /** Read loops waiting for room (at most one per partition). */
  const roomWaiters = new Set<() => void>();
  const wakeReaders = () => {
    for (const wake of roomWaiters) wake();
    roomWaiters.clear();
  };

  /** Whether an ordered entry may leave now, was already sent, or must wait for its predecessor. */
  async function turnOf(entry: OutboxEntry): Promise<'send' | 'already_sent' | 'wait'> {
    if (!entry.order) return 'send';
    const { conversation, seq } = entry.order;
    const known = lastSent.get(conversation);
    if (known !== undefined && seq === known + 1) return 'send';
    if (known !== undefined && seq <= known) return 'already_sent';
    return order.claim(entry.order);
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
    if (entry.live) {
      await sender.show({ ...entry, live: entry.live }).catch((err: unknown) => {
        logger.warn({ channel: adapter.key, err: errorMessage(err) }, 'live message op failed');
      });
      await stream.ack(entry, false);
      return 'done';
    }
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
      turn === 'send' && !entry.malformed ? await sender.send(entry) : { done: true, progressSaved: false };
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
    // A turn's live ops share a lane of their own too: in order, beside the conversation's replies.
    laneOf: (e) =>
      e.approval
        ? `approval:${e.approval.approvalId}`
        : e.live
          ? `live:${e.live.root}`
          : (e.order?.conversation ?? `${e.to.chat}:${e.to.thread ?? ''}`),
    rankOf: (e) => e.order?.seq,
    process: deliver,
    settled: (e) => {
      if (partOf(e).inFlight.delete(e.id)) inFlightCount--;
      if (inFlightCount < MAX_IN_FLIGHT) wakeReaders();
    },
    onError: (err) => logger.warn({ channel: adapter.key, err: errorMessage(err) }, 'outbox delivery failed'),
    waitMs: ORDER_RECHECK_MS,
    signal: stop.signal,
  });

  function dispatch(entry: OutboxEntry): void {
    const { inFlight } = partOf(entry);
    if (inFlight.has(entry.id)) return;
    inFlight.add(entry.id);
    inFlightCount++;
    lanes.add(entry);
  }

  async function readLoop(part: (typeof parts)[number]): Promise<void> {
    const { stream, reader } = part;
    while (!stop.signal.aborted) {
      if (inFlightCount >= MAX_IN_FLIGHT) {
        await new Promise<void>((r) => roomWaiters.add(r));
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

  const reading = Promise.all(
    parts.map((part) =>
      part.stream
        .ensureGroup()
        .catch(() => {}) // the read loop recreates it on NOGROUP
        .then(() => readLoop(part)),
    ),
  );
  const stopKeepers = parts.map((part) =>
    startOutboxKeeper({
      stream: part.stream,
      channel: adapter.key,
      logger,
      timings: t,
      inFlight: () => part.inFlight,
      room: () => MAX_IN_FLIGHT - inFlightCount,
      dispatch,
    }),
  );

  return {
    async close() {
      stop.abort();
      for (const stopKeeper of stopKeepers) stopKeeper();
      wakeReaders();
      for (const part of parts) part.reader.disconnect();
      const bounded = (p: Promise<unknown>) => Promise.race([p, sleep(5000, undefined, { ref: false })]);
      await bounded(Promise.all([reading, lanes.idle()]));
    },
  };
}
