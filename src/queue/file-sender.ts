// Sends one file of a reply's `files` (send_file, media.md §2) through the channel adapter. A file that can no
// longer be sent (its blob expired, the adapter has no uploads, the platform's limit) becomes a short notice in
// the chat instead: the user learns of it, and the conversation's later replies are not held up.
import type { Redis } from 'ioredis';
import type { ChannelAdapter, Recipient } from '../channel-host/types.ts';
import { fileNotSentNotice, fileNotSentReasons } from '../media/media-messages.ts';
import type { QueuedFile } from './turn-files.ts';

export type FileSend = { kind: 'sent' } | { kind: 'notice'; text: string };

/** Platform failures throw (the caller retries them like a text chunk); everything else is decided here. */
export async function sendQueuedFile(
  adapter: ChannelAdapter,
  redis: Redis,
  to: Recipient,
  file: QueuedFile,
): Promise<FileSend> {
  const notice = (reason: string): FileSend => ({
    kind: 'notice',
    text: fileNotSentNotice(file.name, reason),
  });
  if (!adapter.sendFile) return notice(fileNotSentReasons.unsupported);
  if (adapter.maxUploadBytes !== undefined && file.size > adapter.maxUploadBytes) {
    return notice(fileNotSentReasons.tooLarge(file.size, adapter.maxUploadBytes));
  }
  const bytes = await redis.getBuffer(file.blob);
  if (!bytes) return notice(fileNotSentReasons.expired);
  await adapter.sendFile(to, {
    name: file.name,
    bytes,
    mime: file.mime,
    as: file.as,
    ...(file.caption ? { caption: file.caption } : {}),
  });
  return { kind: 'sent' };
}
