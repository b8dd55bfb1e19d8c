// The session index: one sorted set of (agent, session key) by last activity, written in the same Lua step as the
// history (settle-turn, append-history), so the dashboard pages through sessions without scanning keys.
import type { Redis } from 'ioredis';

export const sessionIndexKey = (prefix: string) => `${prefix}:session-index`;

/** A member names both parts unambiguously (aliases and conversation ids may contain any separator). */
export const sessionIndexMember = (agent: string, sessionKey: string) => JSON.stringify([agent, sessionKey]);

export interface IndexedSession {
  agent: string;
  sessionKey: string;
  lastActivityMs: number;
}

export interface SessionIndexPage {
  total: number;
  sessions: IndexedSession[];
}

function parseMember(member: string): { agent: string; sessionKey: string } | null {
  try {
    const v: unknown = JSON.parse(member);
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string')
      return { agent: v[0], sessionKey: v[1] };
  } catch {
    // not ours: skipped
  }
  return null;
}

/** Most recent first; `offset`/`limit` page it (ZREVRANGE reads only the page). */
export async function readSessionIndex(
  redis: Redis,
  prefix: string,
  offset: number,
  limit: number,
): Promise<SessionIndexPage> {
  const key = sessionIndexKey(prefix);
  const [total, flat] = await Promise.all([
    redis.zcard(key),
    redis.zrevrange(key, offset, offset + limit - 1, 'WITHSCORES'),
  ]);
  const sessions: IndexedSession[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const m = parseMember(flat[i]!);
    if (m) sessions.push({ ...m, lastActivityMs: Number(flat[i + 1]) });
  }
  return { total, sessions };
}

/** The score of one session (null when it is not indexed). */
export async function sessionLastActivity(
  redis: Redis,
  prefix: string,
  agent: string,
  sessionKey: string,
): Promise<number | null> {
  const s = await redis.zscore(sessionIndexKey(prefix), sessionIndexMember(agent, sessionKey));
  return s === null ? null : Number(s);
}
