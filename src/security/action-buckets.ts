// Per-sender action buckets in Redis: a sliding hour of actions shared by a run, its subagents and bounded delegates.
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';

const WINDOW_MS = 3_600_000;
/** A little over the window, so an idle bucket disappears on its own. */
const KEY_TTL_MS = WINDOW_MS + 60_000;

const SCRIPT = readFileSync(new URL('./check-and-record-action-1.lua', import.meta.url), 'utf8');
const SCRIPT_SHA = createHash('sha1').update(SCRIPT).digest('hex');

export interface ActionBuckets {
  /** Atomically drops entries older than an hour and records one action when fewer than `limit` remain. */
  tryRecord(owner: string, sender: string, limit: number, now?: number): Promise<boolean>;
  /** Read-only: would the next tryRecord fail? */
  isExhausted(owner: string, sender: string, limit: number, now?: number): Promise<boolean>;
  /** The Redis key of a bucket (for tests and cleanup). */
  keyOf(owner: string, sender: string): string;
}

async function runScript(redis: Redis, key: string, args: string[]): Promise<unknown> {
  try {
    return await redis.evalsha(SCRIPT_SHA, 1, key, ...args);
  } catch (err) {
    if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
    return redis.eval(SCRIPT, 1, key, ...args);
  }
}

/** The Redis server clock, the same one the script uses, so every process agrees on the window. */
async function serverNowMs(redis: Redis): Promise<number> {
  const [secs, micros] = await redis.time();
  return Number(secs) * 1000 + Math.floor(Number(micros) / 1000);
}

export function createActionBuckets(redis: Redis, prefix: string): ActionBuckets {
  const keyOf = (owner: string, sender: string) => `${prefix}:bucket:${owner}:${sender}`;
  return {
    keyOf,
    async tryRecord(owner, sender, limit, now) {
      if (!(limit > 0)) return false;
      const result = await runScript(redis, keyOf(owner, sender), [
        now === undefined ? '' : String(Math.floor(now)),
        String(WINDOW_MS),
        String(Math.floor(limit)),
        randomUUID(),
        String(KEY_TTL_MS),
      ]);
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
