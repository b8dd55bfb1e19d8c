// Raw Telegram updates into the host: parsed (telegram-inbound.ts), an album's parts merged into one event
// (telegram-album.ts), and each event handed over until it is in the inbox (or refused); a button press is always
// answered. Long polling hands one update or a batch's album parts; webhook mode one update per request, an
// album's parts waiting for each other (album-collector.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Bot } from 'grammy';
import type { ChannelHost, InboundEvent } from '../../src/channel-host/types.ts';
import { errorMessage } from '../../src/core/errors.ts';
import type { Logger } from '../../src/core/logger.ts';
import { createAlbumCollector } from './album-collector.ts';
import { type AlbumPart, albumKeyOf, createAlbumLedger, mergeAlbum } from './telegram-album.ts';
import { type BotIdentity, type ParsedUpdate, parseUpdate } from './telegram-inbound.ts';

/** Attempts for a button press whose handler keeps failing (a message is retried until it is in the inbox). */
const ACTION_ATTEMPTS = 3;

export interface TelegramReceiverOptions {
  /** Channel key `telegram.<alias>`. */
  key: string;
  bot: Bot;
  logger: Logger;
  host(): ChannelHost | null;
  me(): BotIdentity | null;
}

export function createTelegramReceiver(opts: TelegramReceiverOptions) {
  const { bot, key, logger } = opts;
  const ledger = createAlbumLedger();

  /** Hands an event to the host; resolves once it is in the inbox (or refused), retrying while that fails. */
  async function deliver(event: InboundEvent, stopping: AbortSignal): Promise<string | undefined> {
    for (let attempt = 1; ; attempt++) {
      const host = opts.host();
      if (!host || stopping.aborted) throw new Error('channel stopping');
      try {
        const result = await host.receive(event);
        if (!result.accepted)
          logger.debug({ event_id: event.eventId, reason: result.reason }, 'update not taken');
        return result.accepted ? result.notice : undefined;
      } catch (err) {
        logger.warn(
          { event_id: event.eventId, attempt, err: errorMessage(err) },
          'handing update to baton failed',
        );
        if (event.kind === 'action' && attempt >= ACTION_ATTEMPTS) {
          logger.error({ event_id: event.eventId }, 'button press dropped after its last attempt');
          return undefined;
        }
        await sleep(Math.min(250 * 2 ** (attempt - 1), 5000), undefined, { signal: stopping }).catch(
          () => {},
        );
      }
    }
  }

  /** Hands an album's parts over as one event (media groups: telegram-album.ts). */
  async function deliverAlbum(parts: AlbumPart[], stopping: AbortSignal): Promise<void> {
    const { fresh, underway } = ledger.split(parts);
    if (fresh.length) {
      const delivery = deliver(mergeAlbum(fresh), stopping).then(() => {});
      ledger.track(fresh, delivery);
      await delivery;
    } else logger.debug({ parts: parts.length }, 'album parts already handed over');
    await Promise.all(underway);
  }

  /** Handles one update, or an album's parts together; resolves once in the inbox (or deliberately skipped). */
  async function handle(updates: readonly unknown[], stopping: AbortSignal): Promise<void> {
    const me = opts.me();
    if (!me) throw new Error('telegram: update before getMe');
    const parts: AlbumPart[] = [];
    for (const update of updates) {
      const parsed = parseUpdate(update, key, me);
      if (parsed.kind === 'message' && parsed.album)
        parts.push({ event: parsed.event, messageId: parsed.album.messageId });
      else await handleOne(update, parsed, stopping);
    }
    if (parts.length) await deliverAlbum(parts, stopping);
  }

  async function handleOne(update: unknown, parsed: ParsedUpdate, stopping: AbortSignal): Promise<void> {
    const updateId = (update as { update_id?: unknown }).update_id;
    if (parsed.kind === 'skip')
      return void logger.debug({ update_id: updateId, reason: parsed.reason }, 'update skipped');
    if (parsed.kind === 'malformed') {
      return void logger.warn(
        { update_id: updateId, detail: parsed.detail },
        'malformed telegram update skipped',
      );
    }
    if (parsed.kind === 'action') {
      // Always answered, with the handler's notice (an approval's ack) as its text; a failed answer is only logged.
      let notice: string | undefined;
      try {
        notice = await deliver(parsed.event, stopping);
      } finally {
        await bot.api
          .answerCallbackQuery(parsed.callbackId, notice ? { text: notice } : undefined)
          .catch((err: unknown) => logger.warn({ err: errorMessage(err) }, 'answerCallbackQuery failed'));
      }
      return;
    }
    await deliver(parsed.event, stopping);
  }

  const albums = createAlbumCollector({ flush: handle });

  return {
    handle,
    /** One webhook request's update: an album's parts wait for each other, anything else is handled at once. */
    handleRequest(update: unknown, signal: AbortSignal): Promise<void> {
      const album = albumKeyOf(update);
      return album ? albums.join(album, update, signal) : handle([update], signal);
    },
  };
}
