// Conversation history per agent and session key, in Redis, so any worker can continue a session.
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { changeArgs } from '../core/dashboard-changes.ts';
import { conversationTag, type KeySpace } from '../core/key-layout.ts';
import type { Logger } from '../core/logger.ts';
import { loadRedisScript } from '../core/redis-script.ts';
import type { ChatMessage } from '../providers/types.ts';
import { readHistoryEntries } from './history-entry.ts';
import { sessionIndexKey, sessionIndexMember } from './session-index.ts';

const appendHistory = loadRedisScript(join(import.meta.dirname, 'lua', 'append-history-3.lua'));
export const HISTORY_TTL_SECS = 30 * 24 * 60 * 60;
/** `[worker] transcript_max_entries` unset: entries kept per session (the full transcript, not the model's window). */
export const HISTORY_MAX_STORED = 10_000;

/** A session's history list and the set of turn ids already in it (the turn worker also writes them in Lua). */
export function historyKeys(
  space: KeySpace,
  agent: string,
  sessionKey: string,
): [list: string, turns: string] {
  // Under the session key's partition tag: the turn that settles a conversation writes its history in one script.
  const list = `${conversationTag(space, sessionKey)}:history:${agent}:${sessionKey}`;
  return [list, `${list}:turns`];
}

export interface HistoryStore {
  /** The most recent messages, starting at a user message so tool calls keep their results. */
  load(agent: string, sessionKey: string, limit?: number): Promise<ChatMessage[]>;
  /** Idempotent per turn id: a turn processed twice is recorded once. */
  append(
    agent: string,
    sessionKey: string,
    turnId: string,
    messages: readonly ChatMessage[],
  ): Promise<boolean>;
  clear(agent: string, sessionKey: string): Promise<void>;
}

export function createHistoryStore(
  redis: Redis,
  space: KeySpace,
  logger: Logger,
  maxStored = HISTORY_MAX_STORED,
): HistoryStore {
  const key = (agent: string, session: string) => historyKeys(space, agent, session)[0];
  return {
    async load(agent, sessionKey, limit = 50) {
      const list = key(agent, sessionKey);
      // A damaged entry is skipped (logged), so it cannot fail every later turn of the session.
      const msgs = readHistoryEntries(await redis.lrange(list, -limit, -1), { logger, key: list });
      const firstUser = msgs.findIndex((m) => m.role === 'user');
      return firstUser < 0 ? [] : msgs.slice(firstUser);
    },
    async append(agent, sessionKey, turnId, messages) {
      if (messages.length === 0) return false;
      const keys = [...historyKeys(space, agent, sessionKey), sessionIndexKey(space, sessionKey)];
      const res = await appendHistory(redis, keys, [
        turnId,
        HISTORY_TTL_SECS,
        maxStored,
        sessionIndexMember(agent, sessionKey),
        ...changeArgs(space.prefix, 'sessions', sessionKey),
        ...messages.map((m) => JSON.stringify(m)),
      ]);
      return Number(res) === 1;
    },
    async clear(agent, sessionKey) {
      // Both keys share the session's tag: one slot.
      await redis.del(...historyKeys(space, agent, sessionKey));
    },
  };
}
