// Web chat uploads: a signed-in user's file, stored as a blob before the message that sends it, owned by that
// user and chat. The message's attachment `source` names the upload and its owner; `download` gives the bytes
// back only to that owner. Each user holds at most PENDING_UPLOADS_MAX uploads not yet sent.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import {
  PENDING_UPLOADS_MAX,
  type WebChatUser,
  type WebUpload,
  type WebUploads,
} from '../../src/channel-host/web-chat.ts';
import type { Logger } from '../../src/core/logger.ts';
import { parseRecord } from '../../src/core/redis-record.ts';
import { type Attachment, AttachmentFetchError, type AttachmentKind } from '../../src/media/attachment.ts';
import { blobKeys, createBlobStore } from '../../src/media/blob-store.ts';
import { attachmentReasons } from '../../src/media/media-messages.ts';
import { sniffImage } from '../../src/media/sniff.ts';

/** An upload not sent within this is gone (its place in the user's cap too). */
export const UPLOAD_TTL_SECS = 60 * 60;
/** Longest name kept (the rest is cut): the model's line and the page show it, safe-name.ts makes paths of it. */
export const UPLOAD_NAME_MAX = 1000;

const recordSchema = z.object({
  peer: z.string(),
  chat: z.string(),
  name: z.string(),
  size: z.number().int().nonnegative(),
  kind: z.string(),
  mime: z.string().optional(),
  blob: z.string(),
  /** The clientId of the message that sent it: only a resend of that message may name it again. */
  sentIn: z.string().optional(),
});
type UploadRecord = z.infer<typeof recordSchema>;

/** What an attachment's `source` carries: the upload and who may read it (built by the adapter, never a browser). */
const sourceSchema = z.object({ upload: z.uuid(), chat: z.string(), peer: z.string() });

const kindOf = (bytes: Uint8Array, mime: string | undefined): AttachmentKind => {
  if (sniffImage(bytes)) return 'image';
  if (mime?.startsWith('audio/')) return 'audio';
  if (mime?.startsWith('video/')) return 'video';
  return 'document';
};

export interface WebUploadStore extends WebUploads {
  /**
   * The attachments of message `clientId` naming `ids`, or null when one is not this user's in this chat, was sent
   * by another message, or expired.
   */
  attachments(user: WebChatUser, ids: readonly string[], clientId: string): Promise<Attachment[] | null>;
  /** After message `clientId` was taken: the places go back and the bytes go (the host stored its own copy). */
  sent(user: WebChatUser, ids: readonly string[], clientId: string): Promise<void>;
  /** The adapter's `download`: the bytes of the upload `source` names, for its owner only. */
  download(source: string, maxBytes: number): Promise<Uint8Array>;
}

export function createWebUploadStore(opts: {
  redis: () => Redis;
  prefix: string;
  alias: string;
  logger: Logger;
}): WebUploadStore {
  const { prefix, alias, logger } = opts;
  const recordKey = (id: string) => `${prefix}:web:upload:${alias}:${id}`;
  const pendingKey = (user: WebChatUser) => `${prefix}:web:uploads:${alias}:${user.peerId}`;
  const blobs = () => createBlobStore(opts.redis());

  async function recordOf(id: string): Promise<UploadRecord | undefined> {
    if (!z.uuid().safeParse(id).success) return undefined;
    const raw = await opts.redis().get(recordKey(id));
    return parseRecord(recordSchema, raw, { logger, key: recordKey(id), what: 'web upload' });
  }
  const owns = (user: WebChatUser, r: UploadRecord | undefined): r is UploadRecord =>
    r !== undefined && r.peer === user.peerId && r.chat === user.chatId;

  return {
    async reserve(user) {
      const id = randomUUID();
      const now = Date.now();
      // Reserved before the count is read: two uploads at once both count, and the one past the cap gives way.
      const res = await opts
        .redis()
        .multi()
        .zremrangebyscore(pendingKey(user), '-inf', now)
        .zadd(pendingKey(user), now + UPLOAD_TTL_SECS * 1000, id)
        .zcard(pendingKey(user))
        .expire(pendingKey(user), UPLOAD_TTL_SECS)
        .exec();
      const count = Number(res?.[2]?.[1] ?? Number.POSITIVE_INFINITY);
      if (count <= PENDING_UPLOADS_MAX) return id;
      await opts.redis().zrem(pendingKey(user), id);
      return null;
    },
    async store(user, id, file): Promise<WebUpload> {
      const blob = blobKeys(prefix).fresh('up');
      const name = file.name.slice(0, UPLOAD_NAME_MAX);
      const kind = kindOf(file.bytes, file.mime);
      const record: UploadRecord = {
        peer: user.peerId,
        chat: user.chatId,
        name,
        size: file.bytes.byteLength,
        kind,
        ...(file.mime ? { mime: file.mime } : {}),
        blob,
      };
      await blobs().put(blob, file.bytes, UPLOAD_TTL_SECS);
      await opts.redis().set(recordKey(id), JSON.stringify(record), 'EX', UPLOAD_TTL_SECS);
      return { id, name, size: record.size, kind };
    },
    async release(user, id) {
      await opts.redis().zrem(pendingKey(user), id);
    },
    async attachments(user, ids, clientId) {
      const out: Attachment[] = [];
      for (const id of ids) {
        const r = await recordOf(id);
        if (!owns(user, r) || (r.sentIn !== undefined && r.sentIn !== clientId)) return null;
        const source = JSON.stringify({ upload: id, chat: user.chatId, peer: user.peerId });
        out.push({
          kind: r.kind as AttachmentKind,
          name: r.name,
          size: r.size,
          ...(r.mime ? { mime: r.mime } : {}),
          source,
        });
      }
      return out;
    },
    async sent(user, ids, clientId) {
      if (ids.length === 0) return;
      // The records stay, marked (a resend of the same message still names them: the host finds its copy stored).
      const tx = opts.redis().multi();
      for (const [i, r] of (await Promise.all(ids.map(recordOf))).entries()) {
        const id = ids[i];
        if (!owns(user, r) || id === undefined) continue;
        tx.set(recordKey(id), JSON.stringify({ ...r, sentIn: clientId }), 'KEEPTTL').unlink(r.blob);
      }
      await tx.zrem(pendingKey(user), ...ids).exec();
    },
    async download(source, maxBytes) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(source);
      } catch {
        throw new AttachmentFetchError(attachmentReasons.notFound);
      }
      const s = sourceSchema.safeParse(parsed);
      if (!s.success) throw new AttachmentFetchError(attachmentReasons.notFound);
      const r = await recordOf(s.data.upload);
      if (!owns({ peerId: s.data.peer, chatId: s.data.chat }, r))
        throw new AttachmentFetchError(attachmentReasons.notFound);
      if (r.size > maxBytes) throw new AttachmentFetchError(attachmentReasons.tooLarge(maxBytes));
      const bytes = await blobs().get(r.blob);
      if (!bytes) throw new AttachmentFetchError(attachmentReasons.notFound);
      return bytes;
    },
  };
}
