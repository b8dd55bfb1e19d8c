// Failed secret attempts, counted in Redis (shared by every gateway): the web login (per address and per user) and
// the ops API's bearer token (per address) use the same limiter, so guessing either costs the same. Attempts are
// reserved atomically before the answer is known (src/core/lua/reserve-attempts-var.lua), so a burst of parallel
// guesses gets no more tries than a sequence would.
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { globalTag } from './key-layout.ts';
import { loadRedisScript } from './redis-script.ts';

export const FAILURES_ALLOWED = 10;
export const FAILURE_WINDOW_SECS = 15 * 60;

/** A counter and how many failures it allows per window (default FAILURES_ALLOWED). */
export type Counter = string | { name: string; allowed: number };

const reserveAttempts = loadRedisScript(join(import.meta.dirname, 'lua', 'reserve-attempts-var.lua'));

export interface FailureLimiter {
  /** Seconds until every counter named may be tried again, or 0 (read only: for a secret already known right). */
  blockedFor(counters: readonly Counter[]): Promise<number>;
  /** Counts one attempt on every counter, all or none; the seconds to wait when one is full (nothing counted). */
  reserve(counters: readonly Counter[]): Promise<number>;
  /** Gives back a reserved attempt that turned out right. */
  refund(counters: readonly Counter[]): Promise<void>;
}

/** A counter's key; all counters share one hash tag, so one reservation counts them in one script. */
export const failureCounterKey = (prefix: string, c: Counter): string =>
  `${globalTag(prefix, 'auth-failures')}:${typeof c === 'string' ? c : c.name}`;

/** `counter` is e.g. `login-addr:<ip>`. */
export function createFailureLimiter(
  redis: Redis,
  prefix: string,
  allowed = FAILURES_ALLOWED,
  windowSecs = FAILURE_WINDOW_SECS,
): FailureLimiter {
  const keyOf = (c: Counter) => failureCounterKey(prefix, c);
  const allowedOf = (c: Counter) => (typeof c === 'string' ? allowed : c.allowed);
  return {
    async blockedFor(counters) {
      let wait = 0;
      for (const c of counters) {
        const key = keyOf(c);
        const [[, count], [, ttl]] = ((await redis.multi().get(key).ttl(key).exec()) ?? [
          [null, null],
          [null, null],
        ]) as [[unknown, string | null], [unknown, number]];
        if ((Number(count) || 0) >= allowedOf(c)) wait = Math.max(wait, ttl > 0 ? ttl : windowSecs);
      }
      return wait;
    },
    async reserve(counters) {
      const res = await reserveAttempts(redis, counters.map(keyOf), [
        String(windowSecs),
        ...counters.map((c) => String(allowedOf(c))),
      ]);
      return Number(res) || 0;
    },
    async refund(counters) {
      const m = redis.multi();
      // With the window again: a key that expired meanwhile must not stay at -1 forever.
      for (const c of counters) m.decr(keyOf(c)).expire(keyOf(c), windowSecs);
      await m.exec();
    },
  };
}
