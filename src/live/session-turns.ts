// A session's recent turns (live.md §6): the bounded index the run-event flush writes (root run id → start ms),
// read back newest first, every entry checked (a bad one is logged and skipped).
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { isUuid } from '../core/ids.ts';
import type { KeySpace } from '../core/key-layout.ts';
import type { Logger } from '../core/logger.ts';
import { parseRecord } from '../core/redis-record.ts';
import { RECENT_TURNS, runEventKeys } from './run-event-log.ts';

export interface IndexedTurn {
  rootRunId: string;
  startedAt: number;
}

/** Newest first, at most RECENT_TURNS. */
export async function readRecentTurns(
  redis: Redis,
  space: KeySpace,
  session: string,
  logger: Pick<Logger, 'warn'>,
): Promise<IndexedTurn[]> {
  const key = runEventKeys(space).turns(session);
  const flat = await redis.zrevrange(key, 0, RECENT_TURNS - 1, 'WITHSCORES');
  const out: IndexedTurn[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const member = flat[i]!;
    const at = Number(flat[i + 1]);
    if (isUuid(member) && Number.isSafeInteger(at) && at > 0) out.push({ rootRunId: member, startedAt: at });
    else
      logger.warn(
        { key, sample: member.slice(0, 80), score: flat[i + 1] },
        'unreadable recent-turn entry skipped',
      );
  }
  return out;
}

const sessionsSchema = z.array(z.string());

/** The sessions a turns-channel message names; an unreadable message names none (logged). */
export function sessionsWithNewTurns(
  message: string,
  channel: string,
  logger: Pick<Logger, 'warn'>,
): string[] {
  return parseRecord(sessionsSchema, message, { logger, key: channel, what: 'new-turn message' }) ?? [];
}
