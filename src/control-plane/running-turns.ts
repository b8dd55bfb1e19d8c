// Which sessions have a turn running right now, and where: read by the session-abort API.
import type { Redis } from 'ioredis';

export interface RunningTurns {
  markRunning(sessionKey: string, runId: string, workerId: string): Promise<void>;
  markDone(sessionKey: string, runId: string): Promise<void>;
  get(sessionKey: string): Promise<{ runId: string; workerId: string } | null>;
}

export function createRunningTurns(redis: Redis, prefix: string): RunningTurns {
  const key = `${prefix}:running-turns`;
  return {
    async markRunning(sessionKey, runId, workerId) {
      await redis.hset(key, sessionKey, JSON.stringify({ runId, workerId }));
    },
    async markDone(sessionKey, runId) {
      // Only the run that marked it clears it (a later turn of the same session may already be running).
      const cur = await redis.hget(key, sessionKey);
      if (cur && (JSON.parse(cur) as { runId: string }).runId === runId) await redis.hdel(key, sessionKey);
    },
    async get(sessionKey) {
      const cur = await redis.hget(key, sessionKey);
      return cur ? (JSON.parse(cur) as { runId: string; workerId: string }) : null;
    },
  };
}
