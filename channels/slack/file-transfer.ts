// Slack files both ways: url_private downloads with the bot token (only ever sent to Slack's file hosts), and
// send_file through the external upload flow (files.getUploadURLExternal → POST bytes → completeUploadExternal).
import type { webApi } from '@slack/bolt';
import type { MessageRef, Recipient } from '../../src/channel-host/types.ts';
import { AttachmentFetchError, type OutboundFile } from '../../src/media/attachment.ts';
import { fetchLimited } from '../../src/media/fetch-limited.ts';
import { attachmentReasons } from '../../src/media/media-messages.ts';
import { slackDialect } from './dialect.ts';
import { FILE_INFO_SOURCE } from './files.ts';
import { mapSendError } from './outbound.ts';
import { toSlackMrkdwn } from './slack-mrkdwn.ts';

/** Slack's upload limit for a file (media.md §2). */
export const SLACK_MAX_UPLOAD_BYTES = slackDialect.capabilities.maxUploadBytes;
const SLACK_FILE_HOST = 'files.slack.com';
const MAX_REDIRECTS = 3;

export interface SlackFilesOptions {
  key: string;
  botToken: string;
  /** The Web API root: its host serves files too (Slack itself, or a fake in tests). */
  apiBaseUrl: string;
  web: webApi.WebClient;
}

export interface SlackFiles {
  download(source: string, maxBytes: number, signal: AbortSignal): Promise<Uint8Array>;
  sendFile(to: Recipient, file: OutboundFile): Promise<MessageRef>;
}

export function createSlackFiles(opts: SlackFilesOptions): SlackFiles {
  const api = new URL(opts.apiBaseUrl);
  /** The bot token goes to these hosts alone: a URL anywhere else gets no credentials. */
  const trusted = (url: URL) =>
    (url.protocol === 'https:' && url.hostname === SLACK_FILE_HOST) ||
    (url.protocol === api.protocol && url.host === api.host);
  // The `message` and `app_mention` deliveries of one message (or an HTTP retry racing a slow first try) share
  // one download: the host's blob check cannot see a download still in flight.
  const inFlight = new Map<string, Promise<Uint8Array>>();

  /** files.info for a file whose event carried no URL (Slack Connect's `check_file_info`). */
  async function urlOfFile(id: string, signal: AbortSignal): Promise<string> {
    let res: Awaited<ReturnType<webApi.WebClient['files']['info']>>;
    try {
      // The Web API call takes no signal: the download's time limit still ends the wait.
      res = await Promise.race([opts.web.files.info({ file: id }), aborted(signal)]);
    } catch (err) {
      if (signal.aborted) throw new AttachmentFetchError(attachmentReasons.timedOut);
      const code = (err as { data?: { error?: unknown } }).data?.error;
      if (code === 'file_not_found' || code === 'file_deleted') {
        throw new AttachmentFetchError(attachmentReasons.notFound);
      }
      throw new AttachmentFetchError(attachmentReasons.unreachable(err));
    }
    const url = res.file?.url_private_download || res.file?.url_private;
    if (!url) throw new AttachmentFetchError(attachmentReasons.notFound);
    return url;
  }

  async function fetchFile(source: string, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
    const raw = source.startsWith(FILE_INFO_SOURCE)
      ? await urlOfFile(source.slice(FILE_INFO_SOURCE.length), signal)
      : source;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new AttachmentFetchError(attachmentReasons.notOnPlatform);
    }
    if (!trusted(url)) throw new AttachmentFetchError(attachmentReasons.notOnPlatform);
    let contentType = '';
    // Redirects by hand: the token follows only to a trusted host (fetch would keep it on a same-origin hop only).
    const follow: typeof fetch = async (_input, init) => {
      let at = url;
      for (let hop = 0; ; hop++) {
        const res = await fetch(at, {
          signal: init?.signal ?? signal,
          redirect: 'manual',
          headers: trusted(at) ? { authorization: `Bearer ${opts.botToken}` } : {},
        });
        const location = res.headers.get('location');
        if (res.status < 300 || res.status >= 400 || !location || hop >= MAX_REDIRECTS) {
          contentType = (res.headers.get('content-type') ?? '').toLowerCase();
          return res;
        }
        await res.body?.cancel();
        at = new URL(location, at);
      }
    };
    const bytes = await fetchLimited(url.href, { maxBytes, signal, fetch: follow });
    // A refused token gets Slack's sign-in page with a 200, not an error: HTML for a file that is not HTML.
    if (contentType.startsWith('text/html') && !/\.html?$/i.test(url.pathname)) {
      throw new AttachmentFetchError(attachmentReasons.loginPage);
    }
    return bytes;
  }

  return {
    download(source, maxBytes, signal) {
      const running = inFlight.get(source);
      if (running) return running;
      const p = fetchFile(source, maxBytes, signal).finally(() => inFlight.delete(source));
      inFlight.set(source, p);
      return p;
    },

    async sendFile(to, file) {
      try {
        const upload = {
          file: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
          filename: file.name,
          ...(file.caption ? { initial_comment: toSlackMrkdwn(file.caption) } : {}),
        };
        const res = await opts.web.files.uploadV2(
          to.thread
            ? { ...upload, channel_id: to.chat, thread_ts: to.thread }
            : { ...upload, channel_id: to.chat },
        );
        return { channel: opts.key, chat: to.chat, messageId: sharedTs(res, to.chat) };
      } catch (err) {
        throw mapSendError(err);
      }
    },
  };
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

type Shares = Record<string, Record<string, Array<{ ts?: unknown }>> | undefined>;

/** The ts of the message that shows the file, when Slack says (its `shares`); else the file id. */
function sharedTs(res: unknown, chat: string): string {
  const completions = (res as { files?: Array<{ files?: Array<{ id?: unknown; shares?: Shares }> }> }).files;
  const file = completions?.[0]?.files?.[0];
  for (const scope of ['public', 'private'] as const) {
    const ts = file?.shares?.[scope]?.[chat]?.[0]?.ts;
    if (typeof ts === 'string' && ts) return ts;
  }
  return typeof file?.id === 'string' && file.id ? file.id : `${chat}:file`;
}
