// Execution-tree iteration budget: one atomic Redis counter per root run (subagents.md §8).
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { rootTag } from '../core/key-layout.ts';
import { createSilentLogger, type Logger } from '../core/logger.ts';
import { parseRecord } from '../core/redis-record.ts';
import { loadRedisScript } from '../core/redis-script.ts';

const TTL_SECS = 24 * 60 * 60;
const reserveSlot = loadRedisScript(join(import.meta.dirname, 'lua', 'reserve-tree-slot-1.lua'));
const takeLastSlot = loadRedisScript(join(import.meta.dirname, 'lua', 'take-last-tree-slot-1.lua'));

export type RootReservation = 'normal' | 'last' | 'exhausted';

export interface TreeBudget {
  create(rootRunId: string, size: number): Promise<void>;
  /** A sharing child's reservation: only while more than one slot remains. */
  reserveChild(rootRunId: string): Promise<boolean>;
  /** Normal while ≥2 remain; the tool-free last slot when exactly 1 remains. */
  reserveRoot(rootRunId: string): Promise<RootReservation>;
  remaining(rootRunId: string): Promise<number | null>;
}

/** A tree's budget counter, under its root's tag with the tree's live and run-event keys (spec/config.md §15.1.1). */
export const treeBudgetKey = (prefix: string, rootRunId: string): string =>
  `${rootTag(prefix, rootRunId)}:tree-budget`;

export function createTreeBudget(
  redis: Redis,
  prefix: string,
  logger: Pick<Logger, 'warn'> = createSilentLogger(),
): TreeBudget {
  const key = (id: string) => treeBudgetKey(prefix, id);
  return {
    async create(rootRunId, size) {
      await redis.set(key(rootRunId), size, 'EX', TTL_SECS);
    },
    async reserveChild(rootRunId) {
      return Number(await reserveSlot(redis, [key(rootRunId)], [2])) >= 2;
    },
    async reserveRoot(rootRunId) {
      if (Number(await reserveSlot(redis, [key(rootRunId)], [2])) >= 2) return 'normal';
      return Number(await takeLastSlot(redis, [key(rootRunId)], [])) === 1 ? 'last' : 'exhausted';
    },
    async remaining(rootRunId) {
      const k = key(rootRunId);
      const v = await redis.get(k);
      if (v === null) return null;
      // A damaged counter counts as spent, as reserve-tree-slot-1.lua treats it (fail closed).
      return parseRecord(z.number().int(), v, { logger, key: k, what: 'tree budget counter' }) ?? 0;
    },
  };
}
