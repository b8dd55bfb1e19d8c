// Which sessions have a turn running right now, and where: read by the session-abort API.
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { changeArgs } from '../core/dashboard-changes.ts';
import { conversationTag, type KeySpace, partitionTag } from '../core/key-layout.ts';
import { createSilentLogger, type Logger } from '../core/logger.ts';
import { parseRecord } from '../core/redis-record.ts';
import { loadRedisScript } from '../core/redis-script.ts';

const clearRunningTurn = loadRedisScript(join(import.meta.dirname, 'lua', 'clear-running-turn-1.lua'));

export interface RunningTurns {
  /** `runId` is the turn's id (what the settle compares); `rootRunId` its execution tree's root (live.md §6). */
  markRunning(sessionKey: string, runId: string, workerId: string, rootRunId?: string): Promise<void>;
  markDone(sessionKey: string, runId: string): Promise<void>;
  /**
   * The session's running turn. A mark that exists but cannot be read (logged) gives null ids: a turn may still
   * be running there, so an abort should still be published.
   */
  get(sessionKey: string): Promise<RunningTurn | null>;
}

const runningTurnSchema = z.object({
  runId: z.string(),
  workerId: z.string(),
  rootRunId: z.string().optional(),
});
export type RunningTurn = { runId: string | null; workerId: string | null; rootRunId?: string | undefined };

/**
 * The hash of running turns of a session key's partition: session key → `{"runId", "workerId"}` (the turn
 * worker clears it in the script that settles the conversation, so it shares the conversation's tag).
 */
export const runningTurnsKey = (space: KeySpace, sessionKey: string) =>
  `${conversationTag(space, sessionKey)}:running-turns`;

/** The running-turns hash of partition `n` (readers that list every running turn visit each). */
export const runningTurnsKeyOf = (space: KeySpace, n: number) =>
  `${partitionTag(space.prefix, n)}:running-turns`;

export function createRunningTurns(
  redis: Redis,
  space: KeySpace,
  logger: Pick<Logger, 'warn'> = createSilentLogger(),
): RunningTurns {
  const key = (sessionKey: string) => runningTurnsKey(space, sessionKey);
  const { prefix } = space;
  return {
    async markRunning(sessionKey, runId, workerId, rootRunId) {
      const mark = JSON.stringify({ runId, workerId, ...(rootRunId ? { rootRunId } : {}) });
      const [channel, change] = changeArgs(prefix, 'sessions', sessionKey);
      // One round trip, and no write of its own: both leave in the connection's write of this tick (a
      // MULTI is written at once), and the open dashboard pages learn of the turn with the mark. The publish only
      // tells pages to re-read, so it needs no transaction with the mark it follows.
      await Promise.all([redis.hset(key(sessionKey), sessionKey, mark), redis.publish(channel, change)]);
    },
    async markDone(sessionKey, runId) {
      // Only the run that marked it clears it (a later turn of the same session may already be running).
      await clearRunningTurn(
        redis,
        [key(sessionKey)],
        [sessionKey, runId, ...changeArgs(prefix, 'sessions', sessionKey)],
      );
    },
    async get(sessionKey) {
      const cur = await redis.hget(key(sessionKey), sessionKey);
      if (cur === null) return null;
      const at = { logger, key: `${key(sessionKey)}[${sessionKey}]`, what: 'running-turn mark' };
      return parseRecord(runningTurnSchema, cur, at) ?? { runId: null, workerId: null };
    },
  };
}
