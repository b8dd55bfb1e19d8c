// Files on Discord (media.md §1, §2): a message's attachments → the channel contract's attachments, their bytes
// from Discord's CDN, and a file to upload as a message attachment.
import { type Message, MessageFlags } from 'discord.js';
import {
  type Attachment,
  AttachmentFetchError,
  type AttachmentKind,
  type OutboundFile,
} from '../../src/media/attachment.ts';
import { fetchLimited } from '../../src/media/fetch-limited.ts';
import { attachmentReasons } from '../../src/media/media-messages.ts';
import { discordDialect } from './dialect.ts';

/** A bot without boosts may upload up to 10 MiB per message (media.md §2). */
export const DISCORD_MAX_UPLOAD_BYTES = discordDialect.capabilities.maxUploadBytes;

/** Discord's own file hosts; attachment URLs are signed, so no token goes with a download. */
const CDN_HOSTS: ReadonlySet<string> = new Set(['cdn.discordapp.com', 'media.discordapp.net']);

/** Types a reader would call a document (PDFs, office files, text); other non-media types are plain files. */
const DOCUMENT_TYPES =
  /^(text\/|application\/(pdf|rtf|json|xml|msword|vnd\.ms-|vnd\.openxmlformats|vnd\.oasis))/;

// The schema's bounds (attachment.ts): a platform value past them is dropped or cut here rather than making the
// whole event unreadable further on.
const MAX_NAME = 10_000;
const MAX_MIME = 255;
const MAX_SOURCE = 8192;
const MAX_PER_EVENT = 50;

function kindOf(contentType: string | null, voice: boolean): AttachmentKind {
  const type = (contentType ?? '').toLowerCase();
  if (voice) return 'voice';
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('video/')) return 'video';
  return DOCUMENT_TYPES.test(type) ? 'document' : 'file';
}

/** The message's attachments as the host takes them: names, sizes and types as Discord claims them. */
export function attachmentsOf(message: Message): Attachment[] {
  const voiceMessage = message.flags.has(MessageFlags.IsVoiceMessage);
  return [...message.attachments.values()].slice(0, MAX_PER_EVENT).map((a) => {
    const mime =
      typeof a.contentType === 'string' && a.contentType.length <= MAX_MIME ? a.contentType : undefined;
    const size = Number.isSafeInteger(a.size) && a.size >= 0 ? a.size : undefined;
    const source = typeof a.url === 'string' && a.url && a.url.length <= MAX_SOURCE ? a.url : undefined;
    return {
      // A voice message's audio carries a waveform; the message flag says the same.
      kind: kindOf(a.contentType, voiceMessage || a.waveform != null),
      name: typeof a.name === 'string' ? a.name.slice(0, MAX_NAME) : '',
      ...(size !== undefined ? { size } : {}),
      ...(mime ? { mime } : {}),
      ...(source ? { source } : {}),
    };
  });
}

/**
 * `download` for the adapter: only URLs on Discord's CDN (or, for a test server, the configured API's own origin)
 * are fetched, so a crafted attachment URL cannot make the gateway fetch anything else. Redirects are not followed.
 */
export function cdnDownloader(apiBaseUrl: string) {
  const apiOrigin = URL.canParse(apiBaseUrl) ? new URL(apiBaseUrl).origin : null;
  const noRedirects: typeof fetch = (input, init) => fetch(input, { ...init, redirect: 'manual' });
  return (source: string, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> => {
    const url = URL.canParse(source) ? new URL(source) : null;
    const onCdn =
      url !== null &&
      ((url.protocol === 'https:' && url.port === '' && CDN_HOSTS.has(url.hostname)) ||
        url.origin === apiOrigin);
    if (!url || !onCdn) return Promise.reject(new AttachmentFetchError(attachmentReasons.notOnPlatform));
    return fetchLimited(url.href, { maxBytes, signal, fetch: noRedirects });
  };
}

/** The REST request of a message carrying `file` (multipart: payload_json + files[0]). */
export function fileMessage(file: OutboundFile, maxCaption: number) {
  const caption = file.caption ?? '';
  const content = caption.length > maxCaption ? `${caption.slice(0, maxCaption - 1)}…` : caption;
  return {
    body: {
      ...(content ? { content } : {}),
      // A caption never pings anyone (@everyone, roles, users), like the model's text.
      allowed_mentions: { parse: [] },
      attachments: [{ id: 0, filename: file.name }],
    },
    files: [{ name: file.name, data: Buffer.from(file.bytes), contentType: file.mime }],
  };
}
