// Nothing posted while no gateway held the channel is lost: on each new gateway session (a start, a hand-over to
// another gateway, a re-identify) the messages posted since the last one seen are fetched per channel (bounded)
// and handed over like live ones; the inbox dedupes any that did arrive (the dedupe key is channel + message id).
//
// Order: each Discord channel has one lane, so a channel's messages reach the inbox in the order posted; live
// messages wait until the catch-up of their channel is queued ahead of them. A message whose hand-over fails for
// good (Redis away past the retries) freezes its channel's last seen id, and that channel is caught up again later.
import type { Client, Message } from 'discord.js';
import type { InboundMessage } from '../../src/channel-host/types.ts';
import { errorMessage } from '../../src/core/errors.ts';
import type { Logger } from '../../src/core/logger.ts';
import type { Mapped } from './inbound.ts';
import { compareSnowflakes, type LastSeenStore } from './last-seen.ts';

/** Messages fetched per channel and catch-up (one page of GET /channels/:id/messages). */
export const CATCH_UP_LIMIT = 100;
/** How soon a channel whose hand-over failed for good (or whose catch-up failed) is caught up again. */
export const CATCH_UP_RETRY_MS = 30_000;
const READ_TIMEOUT_MS = 5000;

export interface CatchUpOptions {
  store: LastSeenStore;
  client: () => Client | null;
  map: (message: Message) => Mapped<InboundMessage>;
  /** True when the event was handed over (accepted or refused by the host), false when it was lost. */
  handOver: (event: InboundMessage) => Promise<boolean>;
  logger: Logger;
  retryMs?: number;
}

export interface CatchUp {
  /** A live message: handed over in its channel's lane. */
  live(message: Message, event: InboundMessage): void;
  /** A gateway session is ready: catch every tracked channel up. */
  connected(): void;
  /** Stops retries and timers; closes the store. */
  stop(): Promise<void>;
}

export function createCatchUp(opts: CatchUpOptions): CatchUp {
  const { store, logger } = opts;
  const lanes = new Map<string, Promise<void>>();
  /** Channels whose last seen id stays where it is until they are caught up again. */
  const behind = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  let openGate = () => {};
  // Live messages wait for the first catch-up to be queued (they would otherwise overtake the gap).
  let gate = new Promise<void>((resolve) => {
    openGate = resolve;
  });

  function inLane(channelId: string, work: () => Promise<void>): void {
    const next = (lanes.get(channelId) ?? Promise.resolve())
      .then(work)
      .catch((err: unknown) =>
        logger.warn({ channel_id: channelId, err: errorMessage(err) }, 'discord hand-over lane failed'),
      );
    lanes.set(channelId, next);
    void next.finally(() => {
      if (lanes.get(channelId) === next) lanes.delete(channelId);
    });
  }

  function later(work: () => void): void {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!stopped) work();
    }, opts.retryMs ?? CATCH_UP_RETRY_MS);
    timer.unref();
    timers.add(timer);
  }

  /** Hands one message over; false (and the channel marked behind) when it was lost. */
  async function take(channelId: string, messageId: string, event: InboundMessage | null): Promise<boolean> {
    if (event && !(await opts.handOver(event))) {
      if (!behind.has(channelId)) later(() => void catchUpAll([channelId]));
      behind.add(channelId);
      return false;
    }
    if (!behind.has(channelId)) void store.seen(channelId, messageId);
    return true;
  }

  async function catchUpChannel(channelId: string, after: string): Promise<void> {
    const client = opts.client();
    if (!client || stopped) return;
    const channel = await client.channels.fetch(channelId).catch(() => null);
    // Gone, or no longer visible to the bot: nothing to fetch.
    if (!channel?.isTextBased() || !('messages' in channel)) return;
    let page: Message[];
    try {
      const fetched = await channel.messages.fetch({ after, limit: CATCH_UP_LIMIT, cache: false });
      page = [...fetched.values()].sort((a, b) => compareSnowflakes(a.id, b.id));
    } catch (err) {
      logger.warn(
        { channel_id: channelId, err: errorMessage(err) },
        'discord catch-up fetch failed; retrying later',
      );
      if (!behind.has(channelId)) later(() => void catchUpAll([channelId]));
      behind.add(channelId);
      return;
    }
    if (page.length > 0) logger.info({ channel_id: channelId, messages: page.length }, 'discord catch-up');
    if (page.length >= CATCH_UP_LIMIT) {
      logger.warn(
        { channel_id: channelId, limit: CATCH_UP_LIMIT },
        'discord catch-up bounded: later messages of the gap are not fetched',
      );
    }
    const wasBehind = behind.delete(channelId);
    for (const message of page) {
      const mapped = opts.map(message);
      // A skipped message (the bot's own, another bot's) still moves the mark past it.
      if (!(await take(channelId, message.id, 'event' in mapped ? mapped.event : null))) return;
    }
    if (wasBehind) logger.info({ channel_id: channelId }, 'discord channel caught up');
  }

  /** Queues the catch-up of the tracked channels (`only`: just these), each in its channel's lane. */
  async function catchUpAll(only?: string[]): Promise<void> {
    let seen: Map<string, string>;
    let timer: NodeJS.Timeout | undefined;
    try {
      // Bounded: live messages wait for this read (a Redis that hangs must not hold them).
      seen = await Promise.race([
        opts.store.all(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('no answer from Redis')), READ_TIMEOUT_MS);
        }),
      ]);
    } catch (err) {
      logger.warn({ err: errorMessage(err) }, 'discord last seen ids unreadable; catch-up retried later');
      later(() => void catchUpAll(only));
      return;
    } finally {
      clearTimeout(timer);
    }
    for (const [channelId, after] of seen) {
      if (only && !only.includes(channelId)) continue;
      inLane(channelId, () => catchUpChannel(channelId, after));
    }
  }

  return {
    live(message, event) {
      void gate.then(() =>
        inLane(message.channelId, async () => void (await take(message.channelId, message.id, event))),
      );
    },
    connected() {
      void catchUpAll().finally(() => openGate());
    },
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      openGate();
      gate = Promise.resolve();
      await Promise.allSettled([...lanes.values()]);
      await store.close();
    },
  };
}
