// File bytes in Redis, so whoever runs a turn or sends a reply can read what another process stored (workers may
// run on other hosts, with no shared disk: media.md §1). Every blob has a TTL: a lost reference frees itself.
import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/** Long enough for a queued turn or a reply retried through a platform outage; as long as inbound dedupe. */
export const BLOB_TTL_SECS = 24 * 60 * 60;

export const blobKeys = (prefix: string) => ({
  /** An inbound attachment's bytes: one key per platform event and position, so a redelivery finds them. */
  inbound: (channel: string, eventId: string, index: number) =>
    `${prefix}:blob:in:${createHash('sha256').update(`${channel}\0${eventId}\0${index}`).digest('hex').slice(0, 40)}`,
  /** A file a run sends (send_file), or a web chat upload: a fresh id each. */
  fresh: (kind: 'out' | 'up') => `${prefix}:blob:${kind}:${randomUUID()}`,
});

export interface BlobStore {
  /** Stores bytes under `key` for `ttlSecs`. */
  put(key: string, bytes: Uint8Array, ttlSecs?: number): Promise<void>;
  /** The bytes, or null when the key expired or never existed. */
  get(key: string): Promise<Buffer | null>;
  /** The stored length, or null when absent (a redelivered event's attachment is not fetched again). */
  size(key: string): Promise<number | null>;
  drop(...keys: string[]): Promise<void>;
}

export function createBlobStore(redis: Redis): BlobStore {
  return {
    async put(key, bytes, ttlSecs = BLOB_TTL_SECS) {
      await redis.set(key, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 'EX', ttlSecs);
    },
    async get(key) {
      return redis.getBuffer(key);
    },
    async size(key) {
      const [[, exists], [, len]] = (await redis.multi().exists(key).strlen(key).exec()) as [
        [unknown, number],
        [unknown, number],
      ];
      return exists ? len : null;
    },
    async drop(...keys) {
      if (keys.length > 0) await redis.unlink(...keys);
    },
  };
}

/** Blob keys are baton's own: a record read back from Redis names one only under this prefix. */
export function isBlobKey(prefix: string, key: string): boolean {
  return key.startsWith(`${prefix}:blob:`) && /^[A-Za-z0-9:._-]+$/.test(key);
}
