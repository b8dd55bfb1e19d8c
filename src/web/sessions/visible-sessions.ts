// The sessions list of a user who is not an operator: the index read through (in chunks, up to a bound) and kept
// to the sessions they may see, then paged; an operator's page is read directly (sessions-page.ts).
import type { Redis } from 'ioredis';
import { type IndexedSession, readSessionIndex } from '../../session/session-index.ts';
import { readSessions, SESSIONS_PAGE_SIZE, type SessionsView } from './sessions-page.ts';

const CHUNK = 1000;
/** Beyond this many indexed sessions a non-operator's list is cut (the newest are read first). */
export const VISIBLE_SCAN_LIMIT = 50_000;

export async function readVisibleSessions(
  redis: Redis,
  prefix: string,
  offset: number,
  visible: ((agent: string, sessionKey: string) => boolean) | null,
): Promise<SessionsView> {
  if (visible === null) return readSessions(redis, prefix, offset);
  const mine: IndexedSession[] = [];
  for (let at = 0; at < VISIBLE_SCAN_LIMIT; at += CHUNK) {
    const page = await readSessionIndex(redis, prefix, at, CHUNK);
    for (const s of page.sessions) if (visible(s.agent, s.sessionKey)) mine.push(s);
    if (at + CHUNK >= page.total) break;
  }
  const view = await readSessions(redis, prefix, 0, mine.slice(offset, offset + SESSIONS_PAGE_SIZE));
  return { ...view, total: mine.length, offset };
}
