// Telegram channel on grammy: long polling or a webhook in, Bot API calls out (private chats, groups, forum topics,
// buttons).
//
// Rate limits: @grammyjs/auto-retry waits out short `retry_after`s (bounded attempts and delay); a longer one is
// passed on as ChannelRateLimitError so the reply pump pauses the channel. The throttler plugin is not used:
// its fixed per-chat spacing would delay every quick follow-up (spec/config.md §12, "Platform rate limits").

import { autoRetry } from '@grammyjs/auto-retry';
import { Bot, GrammyError } from 'grammy';
import type { InlineKeyboardButton } from 'grammy/types';
import { COMMAND_DESCRIPTIONS } from '../../src/channel-host/channel-messages.ts';
import { CHAT_COMMANDS } from '../../src/channel-host/commands.ts';
import {
  type Button,
  type ChannelAdapter,
  type ChannelHost,
  ChannelRateLimitError,
  type MessageRef,
  type OutboundMessage,
} from '../../src/channel-host/types.ts';
import { errorMessage } from '../../src/core/errors.ts';
import type { Logger } from '../../src/core/logger.ts';
import { botApiFetch } from './bot-api-fetch.ts';
import { telegramDialect } from './dialect.ts';
import { toTelegramHtml } from './telegram-html.ts';
import type { BotIdentity } from './telegram-inbound.ts';
import { createTelegramMedia } from './telegram-media.ts';
import { createPolling } from './telegram-polling.ts';
import { createTelegramReceiver } from './telegram-receive.ts';
import { createWebhook } from './telegram-webhook.ts';

/**
 * Telegram counts its 4096 on the text after entity parsing. The rendered HTML shows at most as many characters
 * as the Markdown source (markers and fences drop, `&lt;` counts as one), and the plain fallback is the source,
 * so the pump can chunk the source at the full limit: no headroom is needed.
 */
export const TELEGRAM_MAX_MESSAGE_LENGTH = telegramDialect.capabilities.maxMessageLength;
/** Update kinds asked for; anything else that still arrives is skipped. */
const ALLOWED_UPDATES = ['message', 'channel_post', 'callback_query'] as const;

export interface TelegramAdapterOptions {
  alias: string;
  botToken: string;
  /** Bot API root (`api_base_url`); a trailing slash is removed (grammy refuses it). */
  apiBaseUrl?: string;
  logger: Logger;
  /** auto-retry bounds: longer `retry_after`s, and 429s after these attempts, go to the reply pump. */
  retry?: { maxAttempts?: number; maxDelaySecs?: number };
  /** Long-poll timeout in seconds (Telegram's getUpdates `timeout`). */
  pollTimeoutSecs?: number;
  /** start() waits this long for Telegram, then polling goes on connecting in the background. */
  readyTimeoutMs?: number;
  /** Webhook mode instead of long polling: setWebhook(url, secret_token), served at `/telegram/<alias>/webhook`. */
  webhook?: { url: string; secret: string; deliverTimeoutMs?: number } | undefined;
}

/** Telegram refusing the formatting (not the message): the same text is sent again without parse_mode. */
const isParseError = (err: unknown) =>
  err instanceof GrammyError && err.error_code === 400 && /can't parse entities/i.test(err.description);

const chatIdOf = (chat: string): number | string => (/^-?\d+$/.test(chat) ? Number(chat) : chat);
const threadOf = (thread?: string) =>
  thread && /^\d+$/.test(thread) ? { message_thread_id: Number(thread) } : {};
const keyboard = (rows: Button[][] = []) => ({
  inline_keyboard: rows.map((row) =>
    row.map(
      (b): InlineKeyboardButton => ({
        text: b.label,
        callback_data: b.id,
        ...(b.style ? { style: b.style } : {}),
      }),
    ),
  ),
});

/** The HTML sent: a message's own markup (an approval prompt's), else its Markdown rendered. */
const htmlOf = (msg: OutboundMessage) => msg.markup ?? toTelegramHtml(msg.text);

/** A 429 that auto-retry gave up on becomes the pump's rate-limit signal; other errors pass unchanged. */
function mapSendError(err: unknown): unknown {
  if (err instanceof GrammyError && err.error_code === 429) {
    const secs = err.parameters.retry_after ?? 1;
    return new ChannelRateLimitError(secs * 1000, `telegram rate limited: retry after ${secs} s`);
  }
  return err;
}

export function createTelegramAdapter(opts: TelegramAdapterOptions): ChannelAdapter {
  const key = `telegram.${opts.alias}`;
  const { logger } = opts;
  const apiRoot = (opts.apiBaseUrl ?? 'https://api.telegram.org').replace(/\/+$/, '');
  // botApiFetch: grammy's calls over Node's HTTP client, not node-fetch (bot-api-fetch.ts).
  const bot = new Bot(opts.botToken, { client: { apiRoot, fetch: botApiFetch as unknown as typeof fetch } });
  // Network errors and 5xx go back to the caller at once: the pump retries sends with its own backoff, and
  // grammy's polling loop retries getUpdates; auto-retry only waits out short retry_afters.
  bot.api.config.use(
    autoRetry({
      maxRetryAttempts: opts.retry?.maxAttempts ?? 2,
      maxDelaySeconds: opts.retry?.maxDelaySecs ?? 5,
      rethrowHttpErrors: true,
      rethrowInternalServerErrors: true,
    }),
  );
  let host: ChannelHost | null = null;
  let me: BotIdentity | null = null;
  const media = createTelegramMedia({
    bot,
    apiRoot,
    token: opts.botToken,
    key,
    logger,
    chatIdOf,
    threadOf,
    mapSendError,
  });

  const receiver = createTelegramReceiver({
    key,
    bot,
    logger,
    host: () => host,
    me: () => me,
  });

  const readyTimeoutMs = opts.readyTimeoutMs ?? 15_000;
  const webhook = opts.webhook
    ? createWebhook({
        alias: opts.alias,
        bot,
        logger,
        url: opts.webhook.url,
        secret: opts.webhook.secret,
        ...(opts.webhook.deliverTimeoutMs ? { deliverTimeoutMs: opts.webhook.deliverTimeoutMs } : {}),
        allowedUpdates: ALLOWED_UPDATES,
        handle: receiver.handleRequest,
        readyTimeoutMs,
      })
    : null;
  const inbound =
    webhook ??
    createPolling({
      bot,
      logger,
      handle: receiver.handle,
      allowedUpdates: ALLOWED_UPDATES,
      pollTimeoutSecs: opts.pollTimeoutSecs ?? 30,
      readyTimeoutMs,
    });
  const route = webhook?.route ?? null;

  return {
    key,
    maxMessageLength: TELEGRAM_MAX_MESSAGE_LENGTH,
    // A webhook reaches whichever gateway the URL leads to: every gateway serves it, no lease needed.
    singleConsumer: !route,
    async start(h) {
      host = h;
      await inbound.start((info) => {
        me = { id: info.id, username: info.username };
        logger.info({ bot: info.username, mode: route ? 'webhook' : 'polling' }, 'telegram channel started');
        // The command menu is a convenience: typing `/stop` works without it, so a failure is only logged.
        const commands = CHAT_COMMANDS.map((c) => ({ command: c, description: COMMAND_DESCRIPTIONS[c] }));
        bot.api
          .setMyCommands(commands)
          .catch((err: unknown) => logger.warn({ err: errorMessage(err) }, 'telegram setMyCommands failed'));
      });
    },
    routes: () => (route ? [route] : []),
    async stop() {
      await inbound.stop();
      host = null;
    },
    async send(to, msg): Promise<MessageRef> {
      const rows = msg.buttons ?? [];
      const extra = { ...threadOf(to.thread), ...(rows.length ? { reply_markup: keyboard(rows) } : {}) };
      const chat = chatIdOf(to.chat);
      try {
        const sent = await bot.api
          .sendMessage(chat, htmlOf(msg), { ...extra, parse_mode: 'HTML' })
          .catch((err: unknown) => {
            if (!isParseError(err)) throw err;
            logger.warn(
              { chat: to.chat, err: errorMessage(err) },
              'telegram refused the formatting; sent as plain text',
            );
            return bot.api.sendMessage(chat, msg.text, extra);
          });
        return { channel: key, chat: to.chat, messageId: String(sent.message_id) };
      } catch (err) {
        throw mapSendError(err);
      }
    },
    async edit(ref, msg) {
      try {
        // An empty keyboard removes the buttons.
        const chat = chatIdOf(ref.chat);
        const extra = { reply_markup: keyboard(msg.buttons) };
        await bot.api
          .editMessageText(chat, Number(ref.messageId), htmlOf(msg), {
            ...extra,
            parse_mode: 'HTML',
          })
          .catch((err: unknown) => {
            if (!isParseError(err)) throw err;
            logger.warn(
              { chat: ref.chat, err: errorMessage(err) },
              'telegram refused the formatting; edited as plain text',
            );
            return bot.api.editMessageText(chat, Number(ref.messageId), msg.text, extra);
          });
      } catch (err) {
        if (err instanceof GrammyError && /message is not modified/i.test(err.description)) return;
        throw mapSendError(err);
      }
    },
    download: media.download,
    maxUploadBytes: media.maxUploadBytes,
    sendFile: media.sendFile,
    async delete(ref) {
      try {
        await bot.api.deleteMessage(chatIdOf(ref.chat), Number(ref.messageId));
      } catch (err) {
        throw mapSendError(err);
      }
    },
    async typing(to) {
      await bot.api
        .sendChatAction(chatIdOf(to.chat), 'typing', threadOf(to.thread))
        .catch((err: unknown) =>
          logger.debug({ chat: to.chat, err: errorMessage(err) }, 'typing action failed'),
        );
    },
  };
}
