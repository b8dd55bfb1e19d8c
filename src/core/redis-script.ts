// Loads a Lua script file (name ends with its key count, BullMQ style) and runs it by SHA with an EVAL fallback.
// A line `--!include <path>` is replaced by that file's text (a fragment, relative to the including file), so a
// rule written once in Lua (an outbox entry, a history append) is the same in every script that needs it.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Redis } from 'ioredis';
import { assertOneSlot } from './key-layout.ts';

/** `onEval`: told when the script was not cached and went again as EVAL (after the caller's later commands). */
export type RedisScript = (
  redis: Redis,
  keys: string[],
  args: (string | number)[],
  onEval?: () => void,
) => Promise<unknown>;

// Every test runs with it (vitest.config.ts), so a script whose keys span two slots fails on one Redis as it
// would on a Cluster. Off by default in a deployment: one Redis runs such a script fine, and a Cluster refuses it.
const SLOT_CHECK = process.env.BATON_SLOT_CHECK === '1';

const INCLUDE = /^--!include\s+(\S+)\s*$/gm;

/** The script's text with its fragments inlined (once each; a fragment may include others). */
export function readLuaSource(path: string, seen: Set<string> = new Set()): string {
  return readFileSync(path, 'utf8').replace(INCLUDE, (_, rel: string) => {
    const target = join(dirname(path), rel);
    if (seen.has(target)) return '';
    seen.add(target);
    return readLuaSource(target, seen).trimEnd();
  });
}

export function loadRedisScript(path: string): RedisScript {
  const source = readLuaSource(path);
  // `-<n>.lua` declares the key count; `-var.lua` a script whose caller decides how many keys it passes.
  const suffix = /-(\d+|var)\.lua$/.exec(basename(path))?.[1];
  if (suffix === undefined) throw new Error(`Lua script ${path} must end with -<key count>.lua or -var.lua`);
  const keyCount = suffix === 'var' ? null : Number(suffix);
  const sha = createHash('sha1').update(source).digest('hex');
  return async (redis, keys, args, onEval) => {
    if (keyCount !== null && keys.length !== keyCount) {
      throw new Error(`${basename(path)} takes ${keyCount} keys, got ${keys.length}`);
    }
    if (SLOT_CHECK) assertOneSlot(basename(path), keys);
    try {
      return await redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      onEval?.();
      return redis.eval(source, keys.length, ...keys, ...args);
    }
  };
}
