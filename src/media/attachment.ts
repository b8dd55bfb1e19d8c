// Attachments in the channel contract (media.md §1, §2): what an adapter reports of a message's files, how the
// host asks it for their bytes, and what it sends back. Names, sizes and types come from the platform: untrusted.
import { z } from 'zod';

/** What a file is to the model. A Telegram sticker is an `image`; a platform kind baton does not know is `file`. */
export const ATTACHMENT_KINDS = [
  'image',
  'document',
  'voice',
  'audio',
  'video',
  'animation',
  'file',
] as const;
export type AttachmentKind = (typeof ATTACHMENT_KINDS)[number];

/** One message carries at most this many (Discord 10, Slack and Telegram fewer); more are dropped, and logged. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 10;

export const attachmentSchema = z.object({
  kind: z.enum(ATTACHMENT_KINDS),
  /** The name the platform gave it (or one the adapter made up): shown only after safe-name.ts. */
  name: z.string().max(10_000),
  /** Bytes, as the platform reports them (checked against the limit before any download). */
  size: z.number().int().nonnegative().optional(),
  /** The MIME type the platform claims: a hint, never trusted (images are recognised by their bytes). */
  mime: z.string().max(255).optional(),
  /** The adapter's own reference to fetch it with (Telegram file_id, a URL); dropped once the host stored it. */
  source: z.string().min(1).max(8192).optional(),
  /** Set by the host: the Redis key holding the bytes (media/blob-store.ts). */
  blob: z.string().min(1).optional(),
  /** Set by the host: why it was not downloaded (media-messages.ts reasons). */
  failed: z.string().min(1).optional(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

/** A download the platform or the network refused; `reason` is the user-visible line's end (media.md §1). */
export class AttachmentFetchError extends Error {
  override readonly name = 'AttachmentFetchError';
  readonly reason: string;
  constructor(reason: string) {
    super(reason);
    this.reason = reason;
  }
}

/** How `send_file` shows a file (media.md §2); `auto` is resolved before it reaches the adapter. */
export type SendAs = 'photo' | 'document' | 'voice';

/** A file to send to a chat: bytes already read, name already safe, size already within the channel's limit. */
export interface OutboundFile {
  name: string;
  bytes: Uint8Array;
  /** Sniffed from the bytes for images, else from the name's extension; `application/octet-stream` otherwise. */
  mime: string;
  as: SendAs;
  caption?: string;
}

export const MIB = 1024 * 1024;
/** `max_attachment_mb` of a channel the config does not declare (the local test channel). */
export const DEFAULT_MAX_ATTACHMENT_MB = 20;

/**
 * The largest file send_file may send to a channel (media.md §2): the platform's own limit (its dialect's
 * `maxUploadBytes`: Telegram 50 MB, Discord 10 MB, Slack 1 GB) or `max_attachment_mb`, the lower.
 */
export function uploadLimitBytes(platformBytes: number, maxAttachmentMb: number): number {
  return Math.min(platformBytes, Math.floor(maxAttachmentMb * MIB));
}

/** A file on an outbox entry (send_file): its bytes wait in a blob until the entry is sent. */
export interface OutboxFile {
  blob: string;
  name: string;
  size: number;
  mime: string;
  as: SendAs;
  caption?: string | undefined;
}
