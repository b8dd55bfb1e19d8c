// Long polling with grammy's bot.start(), stopped so that no update is confirmed before it is in the inbox.
//
// grammy confirms an update (the `offset` of the next getUpdates) once its handler has finished, and
// bot.stop() confirms everything it has *tried*. So: the handler awaits host.receive (retrying while Redis is
// away), a handler that starts while stopping refuses the update (grammy's loop then ends without confirming
// it), and bot.stop() is called only while a long poll is in flight, when every tried update is in the inbox.
import { setTimeout as sleep } from 'node:timers/promises';
import { type Bot, GrammyError } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import { errorMessage } from '../../src/core/errors.ts';
import type { Logger } from '../../src/core/logger.ts';

/** Thrown by the handler for an update that arrives while stopping: it stays unconfirmed for the next holder. */
class PollingStopped extends Error {
  override readonly name = 'PollingStopped';
}

export interface PollingOptions {
  bot: Bot;
  logger: Logger;
  /** Handles one raw update; resolves once it is in the inbox (or deliberately skipped). */
  handle(update: unknown, stopping: AbortSignal): Promise<void>;
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
  let inflight: Promise<void> | null = null;
  let longPollOpen = false;
  let started = false;
  let onLongPoll: (() => void) | null = null;

  // Marks when grammy's loop sits in a long poll: the one moment bot.stop() confirms nothing unreceived.
  bot.api.config.use(async (prev, method, payload, signal) => {
    const longPoll = method === 'getUpdates' && Number((payload as { timeout?: number }).timeout) > 0;
    if (!longPoll) return prev(method, payload, signal);
    longPollOpen = true;
    onLongPoll?.();
    try {
      return await prev(method, payload, signal);
    } finally {
      longPollOpen = false;
    }
  });
  bot.use(async (ctx) => {
    if (stopping.signal.aborted) throw new PollingStopped();
    const work = opts.handle(ctx.update, stopping.signal);
    inflight = work;
    try {
      await work;
    } catch (err) {
      if (stopping.signal.aborted) throw new PollingStopped(); // not in the inbox: must stay unconfirmed
      throw err;
    } finally {
      inflight = null;
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
      await inflight?.catch(() => {});
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
