// The session index: one sorted set of (agent, session key) by last activity, written in the same Lua step as the
// history (settle-turn, append-history), so the dashboard pages through sessions without scanning keys.
// One sorted set per partition (a script touches it with the session's history): readers merge them all.
import type { Redis } from 'ioredis';
import { allPartitions, conversationTag, type KeySpace, partitionTag } from '../core/key-layout.ts';

/** The index of the partition a session key belongs to. */
export const sessionIndexKey = (space: KeySpace, sessionKey: string) =>
  `${conversationTag(space, sessionKey)}:session-index`;

/** The index of partition `n`. */
export const sessionIndexKeyOf = (space: KeySpace, n: number) =>
  `${partitionTag(space.prefix, n)}:session-index`;

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

/**
 * Most recent first; `offset`/`limit` page it. Each partition's index gives its top `offset + limit` (ZREVRANGE
 * reads only those), merged here: with one partition that is exactly the page.
 */
export async function readSessionIndex(
  redis: Redis,
  space: KeySpace,
  offset: number,
  limit: number,
): Promise<SessionIndexPage> {
  const parts = await Promise.all(
    allPartitions(space).map(async (n) => {
      const key = sessionIndexKeyOf(space, n);
      const [total, flat] = await Promise.all([
        redis.zcard(key),
        redis.zrevrange(key, 0, offset + limit - 1, 'WITHSCORES'),
      ]);
      return { total, flat };
    }),
  );
  const all: IndexedSession[] = [];
  for (const { flat } of parts) {
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const m = parseMember(flat[i]!);
      if (m) all.push({ ...m, lastActivityMs: Number(flat[i + 1]) });
    }
  }
  // Ties keep ZREVRANGE's order (members descending) so a page boundary is stable between reads.
  all.sort((a, b) => b.lastActivityMs - a.lastActivityMs);
  const total = parts.reduce((sum, p) => sum + p.total, 0);
  return { total, sessions: all.slice(offset, offset + limit) };
}

/** The score of one session (null when it is not indexed). */
export async function sessionLastActivity(
  redis: Redis,
  space: KeySpace,
  agent: string,
  sessionKey: string,
): Promise<number | null> {
  const s = await redis.zscore(sessionIndexKey(space, sessionKey), sessionIndexMember(agent, sessionKey));
  return s === null ? null : Number(s);
}

/**
 * Every indexed session, most recent first, over all partitions: each partition's index is read `chunk` at a
 * time as the merge reaches it, so a caller that stops early reads little more than it used.
 */
export async function* sessionsNewestFirst(
  redis: Redis,
  space: KeySpace,
  chunk: number,
): AsyncGenerator<IndexedSession> {
  const parts = allPartitions(space).map((n) => ({
    key: sessionIndexKeyOf(space, n),
    at: 0,
    buf: [] as IndexedSession[],
    done: false,
  }));
  const fill = async (p: (typeof parts)[number]) => {
    if (p.buf.length > 0 || p.done) return;
    const flat = await redis.zrevrange(p.key, p.at, p.at + chunk - 1, 'WITHSCORES');
    p.at += chunk;
    if (flat.length < chunk * 2) p.done = true;
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const m = parseMember(flat[i]!);
      if (m) p.buf.push({ ...m, lastActivityMs: Number(flat[i + 1]) });
    }
  };
  for (;;) {
    await Promise.all(parts.map(fill));
    let best: (typeof parts)[number] | undefined;
    for (const p of parts) {
      const head = p.buf[0];
      if (head && (!best || head.lastActivityMs > best.buf[0]!.lastActivityMs)) best = p;
    }
    if (!best) return;
    yield best.buf.shift()!;
  }
}
