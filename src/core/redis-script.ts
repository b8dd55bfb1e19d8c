// Loads a Lua script file (name ends with its key count, BullMQ style) and runs it by SHA with an EVAL fallback.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Redis } from 'ioredis';

export type RedisScript = (redis: Redis, keys: string[], args: (string | number)[]) => Promise<unknown>;

export function loadRedisScript(path: string): RedisScript {
  const source = readFileSync(path, 'utf8');
  // `-<n>.lua` declares the key count; `-var.lua` a script whose caller decides how many keys it passes.
  const suffix = /-(\d+|var)\.lua$/.exec(basename(path))?.[1];
  if (suffix === undefined) throw new Error(`Lua script ${path} must end with -<key count>.lua or -var.lua`);
  const keyCount = suffix === 'var' ? null : Number(suffix);
  const sha = createHash('sha1').update(source).digest('hex');
  return async (redis, keys, args) => {
    if (keyCount !== null && keys.length !== keyCount) {
      throw new Error(`${basename(path)} takes ${keyCount} keys, got ${keys.length}`);
    }
    try {
      return await redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return redis.eval(source, keys.length, ...keys, ...args);
    }
  };
}
