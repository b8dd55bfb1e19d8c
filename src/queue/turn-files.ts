// The worker side of send_file (media.md §2): the bytes go to a blob, the file to the turn's list; the settle
// script puts the answering run's files on the answer's outbox entry, so they leave with it, in order, once.
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Recipient } from '../channel-host/types.ts';
import type { KeySpace } from '../core/key-layout.ts';
import type { OutboundFile, SendAs } from '../media/attachment.ts';
import { BLOB_TTL_SECS, blobKeys } from '../media/blob-store.ts';
import type { TurnFiles } from '../run-contract/turn-files.ts';
import { turnFilesKey } from './names.ts';

/** A file on an outbox entry: its bytes are in `blob` until the entry has been sent. */
export const queuedFileSchema = z.object({
  blob: z.string().regex(/^[A-Za-z0-9:._{}-]+:blob:out:[0-9a-f-]{36}$/),
  name: z.string().min(1).max(255),
  size: z.number().int().nonnegative(),
  mime: z.string().min(1).max(255),
  as: z.enum(['photo', 'document', 'voice']),
  caption: z.string().max(4096).optional(),
});
export type QueuedFile = z.infer<typeof queuedFileSchema>;

/** One entry of a turn's file list: the run that queued it (only the answering run's files are sent). */
export interface TurnFileRecord extends QueuedFile {
  run: string;
}

/** Stores the bytes and describes the file; nothing is sent yet. */
export async function storeOutboundFile(
  redis: Redis,
  prefix: string,
  file: OutboundFile,
): Promise<QueuedFile> {
  const blob = blobKeys(prefix).fresh('out');
  await redis.set(blob, Buffer.from(file.bytes), 'EX', BLOB_TTL_SECS);
  return {
    blob,
    name: file.name,
    size: file.bytes.byteLength,
    mime: file.mime,
    as: file.as satisfies SendAs,
    ...(file.caption ? { caption: file.caption } : {}),
  };
}

/** A cron run's files: kept with the run and queued with its delivery (cron-worker.ts). */
export function createDeliveryFiles(
  redis: Redis,
  prefix: string,
  to: Recipient,
  limitBytes: number,
): TurnFiles & { readonly queued: QueuedFile[] } {
  const queued: QueuedFile[] = [];
  return {
    to,
    limitBytes,
    queued,
    async queue(file) {
      queued.push(await storeOutboundFile(redis, prefix, file));
    },
  };
}

export interface TurnFilesOptions {
  redis: Redis;
  prefix: string;
  /** The key space of the turn's conversation (the list is settled with it in one script). */
  space: KeySpace;
  conversation: string;
  turnId: string;
  /** The root run: a turn handed back and run again must not send the first run's files as well. */
  runId: string;
  to: Recipient;
  limitBytes: number;
}

export function createTurnFiles(opts: TurnFilesOptions): TurnFiles {
  const key = turnFilesKey(opts.space, opts.conversation, opts.turnId);
  return {
    to: opts.to,
    limitBytes: opts.limitBytes,
    async queue(file) {
      const queued = await storeOutboundFile(opts.redis, opts.prefix, file);
      const record: TurnFileRecord = { ...queued, run: opts.runId };
      await opts.redis.multi().rpush(key, JSON.stringify(record)).expire(key, BLOB_TTL_SECS).exec();
    },
  };
}
