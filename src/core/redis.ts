// Redis connections: one factory with the options BullMQ needs and an operator-friendly reachability check.
import { Redis } from 'ioredis';
import { connectionOf, describeTarget, type RedisTarget } from './redis-target.ts';

export function createRedis(
  target: RedisTarget,
  opts: { lazy?: boolean; autoPipeline?: boolean } = {},
): Redis {
  const { url, options } = connectionOf(target);
  const all = {
    ...options,
    // maxRetriesPerRequest: null is what BullMQ requires; commands wait for a reconnect instead of failing.
    maxRetriesPerRequest: null,
    lazyConnect: opts.lazy ?? false,
    enableReadyCheck: true,
    // Commands issued in the same tick leave in one write: fewer syscalls on the per-turn hot path.
    enableAutoPipelining: opts.autoPipeline ?? false,
  };
  return url === undefined ? new Redis(all) : new Redis(url, all);
}

export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}

/** Connects and pings within `timeoutMs`, or fails with one clear line telling how to start Redis. */
export async function connectRedis(target: RedisTarget, timeoutMs = 3000): Promise<Redis> {
  const redis = createRedis(target, { lazy: true, autoPipeline: true });
  let lastError: Error | undefined;
  // Reported through the failed ping below (ioredis keeps retrying on its own); the socket error says more.
  redis.on('error', (e: Error) => {
    lastError = e;
  });
  const timer = new Promise<never>((_, reject) => {
    setTimeout(() => reject(new Error('timed out')), timeoutMs).unref();
  });
  try {
    await Promise.race([redis.connect().then(() => redis.ping()), timer]);
    return redis;
  } catch (err) {
    redis.disconnect();
    const why = (lastError?.message ?? (err instanceof Error ? err.message : String(err))).replace(/\.$/, '');
    throw new RedisUnavailableError(
      `Cannot reach Redis at ${describeTarget(target)}: ${why}. Start one with \`docker compose up -d redis\` or \`redis-server\`.`,
    );
  }
}

/** connectRedis for commands: on failure prints `error: <one line>` through `err` and returns null. */
export async function connectRedisOrExplain(
  target: RedisTarget,
  err: (line: string) => void,
): Promise<Redis | null> {
  try {
    return await connectRedis(target);
  } catch (e) {
    err(`error: ${e instanceof Error ? e.message : String(e)}`);
    return null;
  }
}
