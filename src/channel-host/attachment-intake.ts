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
/** Enough for every image signature sniff.ts knows. */
const SNIFF_BYTES = 16;

export function createAttachmentIntake(opts: AttachmentIntakeOptions): AttachmentIntake {
  const keys = blobKeys(opts.prefix);

  /** The stored bytes, or the reason they are not. */
  async function fetchAndStore(
    source: string,
    download: NonNullable<ChannelAdapter['download']>,
    key: string,
    limit: number,
    timeoutMs: number,
  ): Promise<Uint8Array | string> {
    let bytes: Uint8Array;
    try {
      bytes = await download(source, limit, AbortSignal.timeout(timeoutMs));
    } catch (err) {
      if (!(err instanceof AttachmentFetchError))
        opts.logger.debug({ err: errorMessage(err) }, 'download failed');
      return err instanceof AttachmentFetchError ? err.reason : attachmentReasons.unreachable(err);
    }
    if (bytes.byteLength > limit) return attachmentReasons.tooLarge(limit);
    if (bytes.byteLength === 0) return attachmentReasons.empty;
    await opts.blobs.put(key, bytes);
    return bytes;
  }

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
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // A redelivery finds the bytes stored; one that arrives while another gateway fetches them waits for it.
    let size = await opts.blobs.size(key);
    if (size === null) {
      // Checked again under the claim: the other fetch may have stored the bytes and let go in between.
      if (await opts.blobs.claimFetch(key, timeoutMs)) {
        size = await opts.blobs.size(key);
        if (size !== null) await opts.blobs.releaseFetch(key);
      } else size = await opts.blobs.awaitFetch(key, timeoutMs);
    }
    let head: Uint8Array;
    if (size !== null) head = await opts.blobs.head(key, SNIFF_BYTES);
    else {
      // Released only once the bytes are stored (or the fetch failed), so a waiter never fetches them again.
      const fetched = await fetchAndStore(
        a.source,
        adapter.download.bind(adapter),
        key,
        limit,
        timeoutMs,
      ).finally(() => opts.blobs.releaseFetch(key).catch(() => {}));
      if (typeof fetched === 'string') {
        opts.logger.warn(
          { channel: event.channel, event_id: event.eventId, kind: a.kind, reason: fetched },
          'attachment not downloaded',
        );
        return failed(fetched);
      }
      size = fetched.byteLength;
      head = fetched.subarray(0, SNIFF_BYTES);
    }
    // A claimed image whose bytes are not one is a plain file: the model never gets it as an image part.
    const image = sniffImage(head);
    if (a.kind === 'image' && !image) {
      // The claim was wrong: neither the kind nor the claimed type is kept.
      const { mime: _claimed, ...unclaimed } = rest;
      return { ...unclaimed, kind: 'file', size, blob: key };
    }
    return { ...rest, size, ...(image ? { mime: image } : {}), blob: key };
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
