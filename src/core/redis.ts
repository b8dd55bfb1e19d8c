// Redis connections: one factory with the options BullMQ needs and an operator-friendly reachability check.
import { Redis } from 'ioredis';

/** The URL with any password masked, for messages. */
export function displayRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable [redis] url)';
  }
}

export function createRedis(url: string, opts: { lazy?: boolean; autoPipeline?: boolean } = {}): Redis {
  // maxRetriesPerRequest: null is what BullMQ requires; commands wait for a reconnect instead of failing.
  return new Redis(url, {
    maxRetriesPerRequest: null,
    lazyConnect: opts.lazy ?? false,
    enableReadyCheck: true,
    // Commands issued in the same tick leave in one write: fewer syscalls on the per-turn hot path.
    enableAutoPipelining: opts.autoPipeline ?? false,
  });
}

export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}

/** Connects and pings within `timeoutMs`, or fails with one clear line telling how to start Redis. */
export async function connectRedis(url: string, timeoutMs = 3000): Promise<Redis> {
  const redis = createRedis(url, { lazy: true, autoPipeline: true });
  redis.on('error', () => {}); // reported through the ping below; ioredis keeps retrying on its own
  const timer = new Promise<never>((_, reject) => {
    setTimeout(() => reject(new Error('timed out')), timeoutMs).unref();
  });
  try {
    await Promise.race([redis.connect().then(() => redis.ping()), timer]);
    return redis;
  } catch (err) {
    redis.disconnect();
    const why = err instanceof Error ? err.message : String(err);
    throw new RedisUnavailableError(
      `Cannot reach Redis at ${displayRedisUrl(url)} ([redis] url): ${why}. Start one with \`docker compose up -d redis\` or \`redis-server\`.`,
    );
  }
}
