// Long polling with grammy's bot.start(), stopped so that no update is confirmed before it is in the inbox.
//
// grammy confirms an update (the `offset` of the next getUpdates) once its handler has finished, and
// bot.stop() confirms everything it has *tried*. So: the handler awaits host.receive (retrying while Redis is
// away), a handler that starts while stopping refuses the update (grammy's loop then ends without confirming
// it), and bot.stop() is called only while a long poll is in flight, when every tried update is in the inbox.
//
// grammy runs a batch's updates one after another; waiting for each inbox round trip in turn made the Telegram
// path a fraction of the local channel's throughput under many chats. So the handler only starts an update (in
// its chat's lane) and returns, and the batch's last update waits for all of them: grammy's next getUpdates,
// which confirms the batch, still goes out only once every update of it is in the inbox.
//
// An album's parts (consecutive in a batch) are handed over together, as one lane entry: they are held until the
// chat's next update that is not one of them, or the batch's end. An album that ends its batch may go on in the
// next one, which grammy fetches only once this batch is in the inbox: so its later parts are looked for with
// getUpdates from the batch's first update (which confirms nothing new), for a short, bounded wait. A part that
// still comes later becomes its own event (telegram-album.ts); grammy's next batch hands the looked-ahead parts
// again, and the album ledger drops them.
import { setTimeout as sleep } from 'node:timers/promises';
import { type Bot, GrammyError } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import { errorMessage } from '../../src/core/errors.ts';
import type { Logger } from '../../src/core/logger.ts';
import { ALBUM_MAX_PARTS, ALBUM_MAX_WAIT_MS, ALBUM_QUIET_MS, albumKeyOf } from './telegram-album.ts';
import { chatOf, createUpdateLanes } from './update-lanes.ts';

/** How often the next batch is looked at for an open album's later parts. */
const LOOK_AHEAD_EVERY_MS = 100;

/** Thrown by the handler for an update that arrives while stopping: it stays unconfirmed for the next holder. */
class PollingStopped extends Error {
  override readonly name = 'PollingStopped';
}

export interface PollingOptions {
  bot: Bot;
  logger: Logger;
  /** Handles one raw update, or an album's parts; resolves once in the inbox (or deliberately skipped). */
  handle(updates: readonly unknown[], stopping: AbortSignal): Promise<void>;
  allowedUpdates: readonly string[];
  pollTimeoutSecs: number;
  /** start() resolves at the latest after this long, polling goes on connecting in the background. */
  readyTimeoutMs: number;
}

export interface Polling {
  start(onReady: (me: UserFromGetMe) => void): Promise<void>;
  stop(): Promise<void>;
}

/** What a fatal polling error means for the operator (grammy stops polling on 401 and 409). */
function describeFatal(err: unknown): string {
  if (err instanceof GrammyError && err.error_code === 401) {
    return 'Telegram rejected the bot token (401 Unauthorized): check bot_token; the channel is stopped';
  }
  if (err instanceof GrammyError && err.error_code === 409) {
    return 'another process polls this bot, or a webhook is set (409 Conflict); the channel is stopped';
  }
  return `Telegram polling stopped: ${errorMessage(err)}`;
}

export function createPolling(opts: PollingOptions): Polling {
  const { bot, logger } = opts;
  let stopping = new AbortController();
  let loop: Promise<void> | null = null;
  const lanes = createUpdateLanes();
  /** Per chat: the album parts of this batch not in a lane yet. */
  const albums = new Map<string, { key: string; updates: unknown[] }>();
  const enqueue = (updates: unknown[]) => {
    const { signal } = stopping;
    lanes.add(updates[0], () => opts.handle(updates, signal));
  };
  /** update_id of the last update of the batch grammy is handling; null: unknown, each update is awaited. */
  let batchEnd: number | null = null;
  /** update_id of the batch's first update: looking ahead from it confirms nothing the batch has not. */
  let batchStart: number | null = null;
  let longPollOpen = false;
  let started = false;
  let onLongPoll: (() => void) | null = null;
  let lookingAhead = false;

  /** Adds the next batch's parts of the albums still open at this batch's end, for a short, bounded wait. */
  async function gatherLateParts(signal: AbortSignal): Promise<void> {
    if (batchStart === null || batchEnd === null) return;
    const [from, end] = [batchStart, batchEnd];
    const deadline = Date.now() + ALBUM_MAX_WAIT_MS;
    let quietUntil = Date.now() + ALBUM_QUIET_MS;
    let seen = end;
    lookingAhead = true;
    try {
      while (albums.size && !signal.aborted && Date.now() < Math.min(quietUntil, deadline)) {
        const updates = await bot.api.getUpdates({
          offset: from,
          timeout: 0,
          allowed_updates: opts.allowedUpdates as never,
        });
        for (const update of updates) {
          if (update.update_id <= seen) continue;
          seen = update.update_id;
          const chat = chatOf(update);
          const held = albums.get(chat);
          if (!held) continue; // another chat's: grammy's next batch brings it
          if (albumKeyOf(update) === held.key && held.updates.length < ALBUM_MAX_PARTS) {
            held.updates.push(update);
            quietUntil = Date.now() + ALBUM_QUIET_MS;
          } else {
            // The chat went on with something else: its album is complete.
            enqueue(held.updates);
            albums.delete(chat);
          }
        }
        if (albums.size) await sleep(LOOK_AHEAD_EVERY_MS, undefined, { signal }).catch(() => {});
      }
    } catch (err) {
      logger.debug({ err: errorMessage(err) }, "looking for an album's later parts failed");
    } finally {
      lookingAhead = false;
    }
  }

  // Marks when grammy's loop sits in a long poll (the one moment bot.stop() confirms nothing unreceived), and
  // notes each batch's last update.
  bot.api.config.use(async (prev, method, payload, signal) => {
    if (method !== 'getUpdates') return prev(method, payload, signal);
    const longPoll = Number((payload as { timeout?: number }).timeout) > 0;
    if (longPoll) {
      longPollOpen = true;
      onLongPoll?.();
    }
    try {
      const res = await prev(method, payload, signal);
      const updates = res.ok ? (res.result as { update_id: number }[]) : [];
      if (!lookingAhead) {
        batchEnd = updates.at(-1)?.update_id ?? null;
        batchStart = updates[0]?.update_id ?? null;
      }
      return res;
    } finally {
      if (longPoll) longPollOpen = false;
    }
  });
  bot.use(async (ctx) => {
    if (stopping.signal.aborted) throw new PollingStopped();
    const chat = chatOf(ctx.update);
    const key = albumKeyOf(ctx.update);
    const held = albums.get(chat);
    if (key && held?.key === key && held.updates.length < ALBUM_MAX_PARTS) held.updates.push(ctx.update);
    else {
      if (held) enqueue(held.updates);
      albums.delete(chat);
      if (key) albums.set(chat, { key, updates: [ctx.update] });
      else enqueue([ctx.update]);
    }
    if (batchEnd !== null && ctx.update.update_id !== batchEnd) return;
    if (albums.size) await gatherLateParts(stopping.signal);
    for (const album of albums.values()) enqueue(album.updates);
    albums.clear();
    await lanes.idle();
    const failed = lanes.takeFailures();
    // Not all in the inbox: the batch must stay unconfirmed.
    if (failed.length && stopping.signal.aborted) throw new PollingStopped();
    for (const f of failed) {
      logger.error({ update_id: f.updateId, err: errorMessage(f.err) }, 'telegram update failed');
    }
  });
  bot.catch((err) => {
    if (err.error instanceof PollingStopped) throw err.error; // ends the loop without confirming
    logger.error(
      { update_id: err.ctx.update.update_id, err: errorMessage(err.error) },
      'telegram update failed',
    );
  });

  return {
    async start(onReady) {
      stopping = new AbortController();
      started = false;
      lanes.takeFailures(); // a stopped run's: already answered by that run's end
      albums.clear(); // a stopped run's unconfirmed parts: Telegram hands them out again
      let ready!: () => void;
      const readyOrFailed = new Promise<void>((r) => {
        ready = r;
      });
      loop = bot
        .start({
          allowed_updates: opts.allowedUpdates as never,
          timeout: opts.pollTimeoutSecs,
          onStart: (me) => {
            started = true;
            onReady(me);
            ready();
          },
        })
        .catch((err: unknown) => {
          if (err instanceof PollingStopped || stopping.signal.aborted) return;
          logger.error({ err: errorMessage(err) }, describeFatal(err));
        })
        .finally(() => ready());
      const timer = setTimeout(() => {
        logger.warn('Telegram is not answering yet; the channel keeps connecting in the background');
        ready();
      }, opts.readyTimeoutMs);
      await readyOrFailed;
      clearTimeout(timer);
    },

    async stop() {
      const running = loop;
      if (!running) return;
      stopping.abort();
      await lanes.idle();
      // Either the loop reaches its next long poll (then bot.stop() confirms only received updates) or it ends
      // (401/409, or an update refused because we are stopping).
      const reason = await new Promise<'poll' | 'ended'>((resolve) => {
        if (!started) return resolve('poll'); // still in getMe/deleteWebhook: nothing was tried yet
        if (longPollOpen || !bot.isRunning()) return resolve(longPollOpen ? 'poll' : 'ended');
        onLongPoll = () => resolve('poll');
        void running.then(() => resolve('ended'));
      });
      onLongPoll = null;
      if (reason === 'poll' && bot.isRunning()) {
        await bot.stop().catch((err: unknown) => logger.warn({ err: errorMessage(err) }, 'telegram stop'));
      }
      // grammy sleeps 3 s after a failed getUpdates before it looks at the stop flag again.
      await Promise.race([running, sleep(5000, undefined, { ref: false })]);
      loop = null;
    },
  };
}
