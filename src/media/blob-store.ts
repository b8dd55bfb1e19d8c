// File bytes in Redis, so whoever runs a turn or sends a reply can read what another process stored (workers may
// run on other hosts, with no shared disk: media.md §1). Every blob has a TTL: a lost reference frees itself.
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
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
  /** The first `n` bytes (what sniffing needs), or an empty buffer when absent. */
  head(key: string, n: number): Promise<Buffer>;
  /**
   * Claims the one fetch of `key` across processes (two gateways taking one redelivered update); false when
   * another process holds it. The claim lapses after `ttlMs`, so a fetcher that died holds nothing for long.
   */
  claimFetch(key: string, ttlMs: number): Promise<boolean>;
  releaseFetch(key: string): Promise<void>;
  /** Waits while another process's claim stands: the stored length once the blob exists, else null. */
  awaitFetch(key: string, timeoutMs: number): Promise<number | null>;
}

const fetchClaimKey = (key: string) => `${key}:fetching`;
const AWAIT_POLL_MS = 100;

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
      // One UNLINK per blob: each blob key is its own slot, and a multi-key UNLINK must stay in one (§15.1.1).
      await Promise.all(keys.map((k) => redis.unlink(k)));
    },
    async head(key, n) {
      return redis.getrangeBuffer(key, 0, n - 1);
    },
    async claimFetch(key, ttlMs) {
      return (await redis.set(fetchClaimKey(key), '1', 'PX', ttlMs, 'NX')) === 'OK';
    },
    async releaseFetch(key) {
      await redis.del(fetchClaimKey(key));
    },
    async awaitFetch(key, timeoutMs) {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        // The claim first, then the bytes: the fetcher stores the blob before it drops its claim, so a claim
        // seen gone means the blob (if the fetch succeeded) is there for the read that follows. Two commands,
        // not MULTI: the claim key and the blob are in different slots of a Cluster.
        const claimed = await redis.exists(fetchClaimKey(key));
        const len = await redis.strlen(key);
        if (len > 0) return len;
        if (!claimed) return null;
        await sleep(AWAIT_POLL_MS);
      }
      return null;
    },
  };
}

/** Blob keys are baton's own: a record read back from Redis names one only under this prefix. */
export function isBlobKey(prefix: string, key: string): boolean {
  return key.startsWith(`${prefix}:blob:`) && /^[A-Za-z0-9:._-]+$/.test(key);
}
