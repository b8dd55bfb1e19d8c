// Files the bot sends to a web chat (send_file): the bytes as a blob and a record naming the chat, kept as long
// as the chat's transcript (a week), served by GET /chat/<alias>/files/<id> to that chat's browser only.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { WebChatFile } from '../../src/channel-host/web-chat.ts';
import type { Logger } from '../../src/core/logger.ts';
import { parseRecord } from '../../src/core/redis-record.ts';
import type { OutboundFile } from '../../src/media/attachment.ts';
import { blobKeys, createBlobStore } from '../../src/media/blob-store.ts';
import { safeName } from '../../src/media/safe-name.ts';
import { sniffImage } from '../../src/media/sniff.ts';

/** As long as the chat's stream lives (web-adapter CHAT_STREAM_TTL_SECS): a link in the chat keeps working. */
export const SENT_FILE_TTL_SECS = 7 * 24 * 60 * 60;

const recordSchema = z.object({
  chat: z.string(),
  name: z.string(),
  mime: z.string(),
  size: z.number().int().nonnegative(),
  blob: z.string(),
});

export interface StoredWebFile {
  id: string;
  name: string;
  size: number;
  image: boolean;
}

export interface WebFileStore {
  put(chat: string, file: OutboundFile): Promise<StoredWebFile>;
  get(chat: string, id: string): Promise<WebChatFile | null>;
}

export function createWebFileStore(opts: {
  redis: () => Redis;
  prefix: string;
  alias: string;
  logger: Logger;
}): WebFileStore {
  const recordKey = (id: string) => `${opts.prefix}:web:file:${opts.alias}:${id}`;
  return {
    async put(chat, file) {
      const id = randomUUID();
      const blob = blobKeys(opts.prefix).fresh('out');
      // Served only as an image type the bytes prove, or as opaque bytes: a browser never renders it as a page.
      const image = sniffImage(file.bytes);
      const name = safeName(file.name);
      const record = {
        chat,
        name,
        mime: image ?? 'application/octet-stream',
        size: file.bytes.byteLength,
        blob,
      };
      await createBlobStore(opts.redis()).put(blob, file.bytes, SENT_FILE_TTL_SECS);
      await opts.redis().set(recordKey(id), JSON.stringify(record), 'EX', SENT_FILE_TTL_SECS);
      return { id, name, size: record.size, image: image !== null };
    },
    async get(chat, id) {
      if (!z.uuid().safeParse(id).success) return null;
      const raw = await opts.redis().get(recordKey(id));
      const r = parseRecord(recordSchema, raw, { logger: opts.logger, key: recordKey(id), what: 'web file' });
      if (!r || r.chat !== chat) return null;
      const bytes = await createBlobStore(opts.redis()).get(r.blob);
      return bytes ? { name: r.name, mime: r.mime, bytes } : null;
    },
  };
}
