// The gateway side of media.md §1: before a message is put in its conversation's inbox (and so before the update
// is confirmed to the platform), each attachment is fetched through the channel's adapter, within the channel's
// limit, and stored in Redis for whichever worker runs the turn. A redelivered event finds its bytes stored and
// fetches nothing; the inbox's dedupe then drops it.

import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { type Attachment, AttachmentFetchError, MAX_ATTACHMENTS_PER_MESSAGE } from '../media/attachment.ts';
import { type BlobStore, blobKeys } from '../media/blob-store.ts';
import { attachmentReasons } from '../media/media-messages.ts';
import { sniffImage } from '../media/sniff.ts';
import type { ChannelAdapter, InboundMessage } from './types.ts';

export interface AttachmentIntake {
  /** The event with every attachment stored (`blob`) or explained (`failed`), and no `source` left. */
  store(event: InboundMessage): Promise<InboundMessage>;
}

export interface AttachmentIntakeOptions {
  blobs: BlobStore;
  prefix: string;
  logger: Logger;
  /** The adapter that received the channel's events (its `download`), if this gateway runs it. */
  adapterOf(channel: string): Pick<ChannelAdapter, 'download'> | undefined;
  /** The channel's `max_attachment_mb` in bytes, read per event (a reload changes it). */
  limitBytesOf(channel: string): number;
  /** One download's time limit. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;

export function createAttachmentIntake(opts: AttachmentIntakeOptions): AttachmentIntake {
  const keys = blobKeys(opts.prefix);

  async function storeOne(event: InboundMessage, a: Attachment, index: number): Promise<Attachment> {
    const { source: _source, ...rest } = a;
    const failed = (reason: string): Attachment => ({ ...rest, failed: reason });
    if (a.failed || a.blob) return failed(a.failed ?? attachmentReasons.unsupported); // an adapter cannot store
    if (index >= MAX_ATTACHMENTS_PER_MESSAGE)
      return failed(attachmentReasons.tooMany(MAX_ATTACHMENTS_PER_MESSAGE));
    const limit = opts.limitBytesOf(event.channel);
    if (a.size !== undefined && a.size > limit) return failed(attachmentReasons.tooLarge(limit));
    if (a.size === 0) return failed(attachmentReasons.empty);
    const adapter = opts.adapterOf(event.channel);
    if (!a.source || !adapter?.download) return failed(attachmentReasons.unsupported);
    const key = keys.inbound(event.channel, event.eventId, index);
    const stored = await opts.blobs.size(key);
    if (stored !== null) return { ...rest, size: stored, blob: key };
    let bytes: Uint8Array;
    try {
      bytes = await adapter.download(
        a.source,
        limit,
        AbortSignal.timeout(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      );
    } catch (err) {
      const reason = err instanceof AttachmentFetchError ? err.reason : attachmentReasons.unreachable(err);
      opts.logger.warn(
        { channel: event.channel, event_id: event.eventId, kind: a.kind, reason, err: errorMessage(err) },
        'attachment not downloaded',
      );
      return failed(reason);
    }
    if (bytes.byteLength > limit) return failed(attachmentReasons.tooLarge(limit));
    if (bytes.byteLength === 0) return failed(attachmentReasons.empty);
    await opts.blobs.put(key, bytes);
    // A claimed image whose bytes are not one is a plain file: the model never gets it as an image part.
    const image = sniffImage(bytes);
    if (a.kind === 'image' && !image) {
      // The claim was wrong: neither the kind nor the claimed type is kept.
      const { mime: _claimed, ...unclaimed } = rest;
      return { ...unclaimed, kind: 'file', size: bytes.byteLength, blob: key };
    }
    return { ...rest, size: bytes.byteLength, ...(image ? { mime: image } : {}), blob: key };
  }

  return {
    async store(event) {
      const list = event.attachments ?? [];
      if (list.length === 0) return event;
      const attachments: Attachment[] = [];
      // One at a time: a message's files are few, and a burst of them must not hold many bodies at once.
      for (const [i, a] of list.entries()) attachments.push(await storeOne(event, a, i));
      return { ...event, attachments };
    },
  };
}
