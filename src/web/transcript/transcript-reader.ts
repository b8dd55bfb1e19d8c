// Reads one page of a session's history from Redis (LRANGE of the page only, plus a few following entries where
// the results of a call at the page's end are stored), so a long transcript costs what one page costs.
import type { Redis } from 'ioredis';
import type { KeySpace } from '../../core/key-layout.ts';
import { historyKeys } from '../../session/history-store.ts';
import type { StoredEntry } from './cards.ts';

export const TRANSCRIPT_PAGE_SIZE = 50;
/** Results of a page's last assistant message lie among the next entries (one per call). */
const FOLLOWING = 32;

export interface TranscriptPage {
  /** Stored entries in the list now. */
  total: number;
  /** Index of the first entry of the page (0 = oldest) and one past its last. */
  start: number;
  end: number;
  entries: StoredEntry[];
  following: StoredEntry[];
}

/** The page ending just before `before` (absent: the newest page). */
export async function readTranscriptPage(
  redis: Redis,
  space: KeySpace,
  agent: string,
  sessionKey: string,
  before?: number,
  size = TRANSCRIPT_PAGE_SIZE,
): Promise<TranscriptPage> {
  const [list] = historyKeys(space, agent, sessionKey);
  let total: number;
  let raw: string[];
  let start: number;
  if (before === undefined) {
    // Length and the last page in one atomic step: indexes from the end need no length first.
    const res = await redis.multi().llen(list).lrange(list, -size, -1).exec();
    total = Number(res?.[0]?.[1] ?? 0);
    raw = (res?.[1]?.[1] as string[] | undefined) ?? [];
    start = total - raw.length;
  } else {
    const end = Math.max(0, before);
    start = Math.max(0, end - size);
    const res =
      end === 0
        ? null
        : await redis
            .multi()
            .llen(list)
            .lrange(list, start, end - 1 + FOLLOWING)
            .exec();
    total = res ? Number(res[0]?.[1] ?? 0) : await redis.llen(list);
    raw = (res?.[1]?.[1] as string[] | undefined) ?? [];
  }
  const inPage = Math.min(raw.length, size, Math.max(0, (before ?? total) - start));
  const all = raw.map((r, i) => ({ index: start + i, raw: r }));
  return {
    total,
    start,
    end: start + inPage,
    entries: all.slice(0, inPage),
    following: all.slice(inPage),
  };
}
