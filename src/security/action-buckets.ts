// Per-sender action buckets in Redis: a sliding hour of actions shared by a run, its subagents and bounded delegates.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { loadRedisScript } from '../core/redis-script.ts';

const WINDOW_MS = 3_600_000;
/** A little over the window, so an idle bucket disappears on its own. */
const KEY_TTL_MS = WINDOW_MS + 60_000;

const checkAndRecord = loadRedisScript(join(import.meta.dirname, 'check-and-record-action-1.lua'));

export interface ActionBuckets {
  /** Atomically drops entries older than an hour and records one action when fewer than `limit` remain. */
  tryRecord(owner: string, sender: string, limit: number, now?: number): Promise<boolean>;
  /** Read-only: would the next tryRecord fail? */
  isExhausted(owner: string, sender: string, limit: number, now?: number): Promise<boolean>;
  /** The Redis key of a bucket (for tests and cleanup). */
  keyOf(owner: string, sender: string): string;
}

/** The Redis server clock, the same one the script uses, so every process agrees on the window. */
async function serverNowMs(redis: Redis): Promise<number> {
  const [secs, micros] = await redis.time();
  return Number(secs) * 1000 + Math.floor(Number(micros) / 1000);
}

/** The Redis key of one sender's bucket (owner = the run tree's root agent). */
export const actionBucketKey = (prefix: string, owner: string, sender: string): string =>
  `${prefix}:bucket:${owner}:${sender}`;

export function createActionBuckets(redis: Redis, prefix: string): ActionBuckets {
  // One key per bucket, alone in every command and script: its own slot, so buckets spread over a Cluster.
  const keyOf = (owner: string, sender: string) => actionBucketKey(prefix, owner, sender);
  return {
    keyOf,
    async tryRecord(owner, sender, limit, now) {
      if (!(limit > 0)) return false;
      const result = await checkAndRecord(
        redis,
        [keyOf(owner, sender)],
        [
          now === undefined ? '' : String(Math.floor(now)),
          String(WINDOW_MS),
          String(Math.floor(limit)),
          randomUUID(),
          String(KEY_TTL_MS),
        ],
      );
      return result === 1;
    },
    async isExhausted(owner, sender, limit, now) {
      if (!(limit > 0)) return true;
      const at = now ?? (await serverNowMs(redis));
      const count = await redis.zcount(keyOf(owner, sender), at - WINDOW_MS, '+inf');
      return count >= limit;
    },
  };
}
