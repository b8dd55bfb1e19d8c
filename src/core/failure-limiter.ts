// Failed secret attempts per client address, counted in Redis (shared by every gateway): the web login and the
// ops API's bearer token use the same limiter, so guessing either costs the same.
import type { Redis } from 'ioredis';

export const FAILURES_ALLOWED = 10;
export const FAILURE_WINDOW_SECS = 15 * 60;

export interface FailureLimiter {
  /** Seconds until `client` may try again, or 0 when it may try now. */
  blockedFor(client: string): Promise<number>;
  fail(client: string): Promise<void>;
}

export function createFailureLimiter(
  redis: Redis,
  keyOf: (client: string) => string,
  allowed = FAILURES_ALLOWED,
  windowSecs = FAILURE_WINDOW_SECS,
): FailureLimiter {
  return {
    async blockedFor(client) {
      const key = keyOf(client);
      const failures = Number(await redis.get(key)) || 0;
      if (failures < allowed) return 0;
      const ttl = await redis.ttl(key);
      return ttl > 0 ? ttl : windowSecs;
    },
    async fail(client) {
      const key = keyOf(client);
      await redis.multi().incr(key).expire(key, windowSecs).exec();
    },
  };
}
