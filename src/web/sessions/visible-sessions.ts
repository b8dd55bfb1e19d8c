// The sessions list of a user who is not an operator: the index read through (in chunks, up to a bound) and kept
// to the sessions they may see, then paged; an operator's page is read directly (sessions-page.ts).
import type { Redis } from 'ioredis';
import type { KeySpace } from '../../core/key-layout.ts';
import { type IndexedSession, sessionsNewestFirst } from '../../session/session-index.ts';
import { readSessions, SESSIONS_PAGE_SIZE, type SessionsView } from './sessions-page.ts';

const CHUNK = 1000;
/** Beyond this many indexed sessions a non-operator's list is cut (the newest are read first). */
export const VISIBLE_SCAN_LIMIT = 50_000;

export async function readVisibleSessions(
  redis: Redis,
  space: KeySpace,
  offset: number,
  visible: ((agent: string, sessionKey: string) => boolean) | null,
): Promise<SessionsView> {
  if (visible === null) return readSessions(redis, space, offset);
  const mine: IndexedSession[] = [];
  let scanned = 0;
  for await (const s of sessionsNewestFirst(redis, space, CHUNK)) {
    if (visible(s.agent, s.sessionKey)) mine.push(s);
    if (++scanned >= VISIBLE_SCAN_LIMIT) break;
  }
  const view = await readSessions(redis, space, 0, mine.slice(offset, offset + SESSIONS_PAGE_SIZE));
  return { ...view, total: mine.length, offset };
}
