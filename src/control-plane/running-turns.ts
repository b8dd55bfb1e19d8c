// Which sessions have a turn running right now, and where: read by the session-abort API.
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { loadRedisScript } from '../core/redis-script.ts';

const clearRunningTurn = loadRedisScript(join(import.meta.dirname, 'lua', 'clear-running-turn-1.lua'));

export interface RunningTurns {
  markRunning(sessionKey: string, runId: string, workerId: string): Promise<void>;
  markDone(sessionKey: string, runId: string): Promise<void>;
  get(sessionKey: string): Promise<{ runId: string; workerId: string } | null>;
}

/** The hash of running turns: session key → `{"runId", "workerId"}` (the turn worker also sets it in Lua). */
export const runningTurnsKey = (prefix: string) => `${prefix}:running-turns`;

export function createRunningTurns(redis: Redis, prefix: string): RunningTurns {
  const key = runningTurnsKey(prefix);
  return {
    async markRunning(sessionKey, runId, workerId) {
      await redis.hset(key, sessionKey, JSON.stringify({ runId, workerId }));
    },
    async markDone(sessionKey, runId) {
      // Only the run that marked it clears it (a later turn of the same session may already be running).
      await clearRunningTurn(redis, [key], [sessionKey, runId]);
    },
    async get(sessionKey) {
      const cur = await redis.hget(key, sessionKey);
      return cur ? (JSON.parse(cur) as { runId: string; workerId: string }) : null;
    },
  };
}
