// Loads a Lua script file (name ends with its key count, BullMQ style) and runs it by SHA with an EVAL fallback.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Redis } from 'ioredis';

export type RedisScript = (redis: Redis, keys: string[], args: (string | number)[]) => Promise<unknown>;

export function loadRedisScript(path: string): RedisScript {
  const source = readFileSync(path, 'utf8');
  const keyCount = Number(/-(\d+)\.lua$/.exec(basename(path))?.[1]);
  if (!Number.isInteger(keyCount)) throw new Error(`Lua script ${path} must end with -<key count>.lua`);
  const sha = createHash('sha1').update(source).digest('hex');
  return async (redis, keys, args) => {
    if (keys.length !== keyCount)
      throw new Error(`${basename(path)} takes ${keyCount} keys, got ${keys.length}`);
    try {
      return await redis.evalsha(sha, keyCount, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return redis.eval(source, keyCount, ...keys, ...args);
    }
  };
}
