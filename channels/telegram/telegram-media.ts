// Telegram files both ways (media.md): an inbound file's bytes through getFile and the Bot API's file URL, and
// send_file's photo / document / voice as multipart uploads. The file URL holds the bot token: it never reaches
// a log or an error (fetchLimited's errors carry only the reason).
import { type Bot, GrammyError, InputFile } from 'grammy';
import type { MessageRef, Recipient } from '../../src/channel-host/types.ts';
import { errorMessage } from '../../src/core/errors.ts';
import type { Logger } from '../../src/core/logger.ts';
import { AttachmentFetchError, type OutboundFile } from '../../src/media/attachment.ts';
import { fetchLimited } from '../../src/media/fetch-limited.ts';
import { attachmentReasons } from '../../src/media/media-messages.ts';
import { safeName } from '../../src/media/safe-name.ts';
import { telegramDialect } from './dialect.ts';

const MIB = 1024 * 1024;
/** The Bot API serves bots files up to 20 MB (getFile answers "file is too big" above). */
export const TELEGRAM_DOWNLOAD_LIMIT = 20 * MIB;
/** The Bot API takes uploads up to 50 MB (media.md §2): the dialect's limit, which workers check send_file by. */
export const TELEGRAM_UPLOAD_LIMIT = telegramDialect.capabilities.maxUploadBytes;
/** sendPhoto takes photos up to 10 MB; a larger one goes as a document straight away. */
const PHOTO_LIMIT = 10 * MIB;
/** Telegram's caption limit (after entity parsing; captions are sent as plain text, so it is the length). */
export const TELEGRAM_CAPTION_LIMIT = 1024;

export interface TelegramMediaOptions {
  bot: Bot;
  apiRoot: string;
  token: string;
  key: string;
  logger: Logger;
  chatIdOf(chat: string): number | string;
  threadOf(thread?: string): { message_thread_id?: number };
  /** The adapter's mapping of a failed call (a 429 becomes ChannelRateLimitError). */
  mapSendError(err: unknown): unknown;
}

/** getFile's refusals as the user line's reason. */
function getFileReason(err: unknown, signal: AbortSignal): string {
  if (signal.aborted) return attachmentReasons.timedOut;
  if (!(err instanceof GrammyError)) return attachmentReasons.unreachable(err);
  if (err.error_code === 400 && /file is too big/i.test(err.description))
    return attachmentReasons.platformLimit('Telegram', TELEGRAM_DOWNLOAD_LIMIT);
  if (err.error_code === 400 && /file_id|file not found/i.test(err.description))
    return attachmentReasons.notFound;
  return attachmentReasons.refused(err.error_code);
}

/** A caption Telegram takes: at most 1024 characters, cut with an ellipsis (never split off: one call, one send). */
function captionOf(caption: string | undefined): { caption?: string } {
  if (!caption) return {};
  const chars = [...caption];
  return {
    caption:
      chars.length <= TELEGRAM_CAPTION_LIMIT
        ? caption
        : `${chars.slice(0, TELEGRAM_CAPTION_LIMIT - 1).join('')}…`,
  };
}

export function createTelegramMedia(opts: TelegramMediaOptions) {
  const { bot, logger } = opts;

  /**
   * Downloads under way by file_id: a webhook retry that arrives while the first delivery is still fetching
   * (Telegram gave up waiting) shares its download instead of starting a second one.
   */
  const inFlight = new Map<string, Promise<Uint8Array>>();

  function download(source: string, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
    const key = `${maxBytes}:${source}`;
    const shared = inFlight.get(key);
    if (shared) return shared;
    const started = fetchFile(source, maxBytes, signal).finally(() => inFlight.delete(key));
    inFlight.set(key, started);
    return started;
  }

  async function fetchFile(source: string, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
    let path: string | undefined;
    let size: number | undefined;
    try {
      // Through grammy: auto-retry and the configured api_base_url apply.
      // grammy types its signal as the abort-controller polyfill's; node-fetch takes the native one.
      const file = await bot.api.getFile(source, signal as Parameters<Bot['api']['getFile']>[1]);
      path = file.file_path;
      size = file.file_size;
    } catch (err) {
      const reason = getFileReason(err, signal);
      logger.debug({ channel: opts.key, err: errorMessage(err), reason }, 'telegram getFile failed');
      throw new AttachmentFetchError(reason);
    }
    if (!path) throw new AttachmentFetchError(attachmentReasons.notFound);
    // A local Bot API server in --local mode answers a path on its own disk: not a URL, and not read here.
    if (path.startsWith('/')) throw new AttachmentFetchError(attachmentReasons.unsupported);
    if (size !== undefined && size > maxBytes)
      throw new AttachmentFetchError(attachmentReasons.tooLarge(maxBytes));
    const encoded = path.split('/').map(encodeURIComponent).join('/');
    return fetchLimited(`${opts.apiRoot}/file/bot${opts.token}/${encoded}`, { maxBytes, signal });
  }

  /** One upload; every call gets its own InputFile (grammy marks the one it sent). */
  function upload(
    to: Recipient,
    file: OutboundFile,
    as: OutboundFile['as'],
  ): Promise<{ message_id: number }> {
    const chat = opts.chatIdOf(to.chat);
    // grammy writes the name unquoted into the multipart header (and throws on a line break): a safe name only.
    const input = new InputFile(file.bytes, safeName(file.name));
    const other = { ...opts.threadOf(to.thread), ...captionOf(file.caption) };
    if (as === 'photo') return bot.api.sendPhoto(chat, input, other);
    if (as === 'voice') return bot.api.sendVoice(chat, input, other);
    return bot.api.sendDocument(chat, input, other);
  }

  async function sendFile(to: Recipient, file: OutboundFile): Promise<MessageRef> {
    const as = file.as === 'photo' && file.bytes.byteLength > PHOTO_LIMIT ? 'document' : file.as;
    try {
      const sent = await upload(to, file, as).catch((err: unknown) => {
        // A photo Telegram cannot process (dimensions, format) or a voice note the recipient does not take
        // (VOICE_MESSAGES_FORBIDDEN, not OGG/Opus) is refused with a 400 and nothing sent: send it as a document.
        if (!(err instanceof GrammyError) || err.error_code !== 400 || as === 'document') throw err;
        logger.warn(
          { chat: to.chat, as, err: errorMessage(err) },
          'telegram refused the file as sent; sending it as a document',
        );
        return upload(to, file, 'document');
      });
      return { channel: opts.key, chat: to.chat, messageId: String(sent.message_id) };
    } catch (err) {
      throw opts.mapSendError(err);
    }
  }

  return { download, sendFile, maxUploadBytes: TELEGRAM_UPLOAD_LIMIT };
}
