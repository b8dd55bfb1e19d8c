// Following a session's live trees (live.md §6): the run events of each of its recent turns, from a per-turn
// position on, and each new turn's as it starts (a flush that files a turn announces its session). Serves the
// resumable session stream of the operations API and the dashboard's pushed session page alike.
import type { Redis } from 'ioredis';
import { errorMessage } from '../core/errors.ts';
import type { KeySpace } from '../core/key-layout.ts';
import type { Logger } from '../core/logger.ts';
import type { RunEvent } from '../run-contract/run-events.ts';
import type { RunEventFeed } from './run-event-feed.ts';
import { type IndexedTurn, readRecentTurns } from './session-turns.ts';

export interface SessionFollowOptions {
  feed: RunEventFeed;
  redis: Redis;
  space: KeySpace;
  logger: Pick<Logger, 'warn'>;
  session: string;
  /** Per turn (root run id), the last sequence number the reader has; a turn not named is read from its start. */
  after: ReadonlyMap<string, number>;
  onEvent(event: RunEvent): void;
  /** The session's recent turns, newest first, each time they change (before their new events). */
  onTurns?(turns: IndexedTurn[]): void;
}

/** Resolves once every followed turn's stored events were delivered; returns the stop function. */
export async function followSession(o: SessionFollowOptions): Promise<() => void> {
  const following = new Map<string, () => void>();
  let stopped = false;
  let refreshing: Promise<void> = Promise.resolve();

  const refresh = async () => {
    const turns = await readRecentTurns(o.redis, o.space, o.session, o.logger);
    if (stopped) return;
    const current = new Set(turns.map((t) => t.rootRunId));
    // A turn that left the index (more than RECENT_TURNS newer ones) is no longer followed.
    for (const [root, stop] of following)
      if (!current.has(root)) {
        stop();
        following.delete(root);
      }
    o.onTurns?.(turns);
    for (const t of [...turns].reverse()) {
      if (following.has(t.rootRunId) || stopped) continue;
      following.set(t.rootRunId, () => {}); // taken before the await: a refresh never follows a turn twice
      const stop = await o.feed.follow(t.rootRunId, o.after.get(t.rootRunId) ?? 0, o.onEvent);
      if (stopped || !following.has(t.rootRunId)) stop();
      else following.set(t.rootRunId, stop);
    }
  };
  const queueRefresh = () => {
    refreshing = refreshing.then(refresh).catch((err: unknown) => {
      o.logger.warn({ session: o.session, err: errorMessage(err) }, 'session tree follow failed');
    });
    return refreshing;
  };

  // Listening first: a turn filed between this and the index read is read by the next refresh, not lost.
  const stopTurns = await o.feed.onNewTurn(o.session, () => void queueRefresh());
  const first = refresh();
  refreshing = first.catch(() => {}); // a wake meanwhile refreshes after it, never beside it
  try {
    await first;
  } catch (err) {
    stopTurns();
    for (const stop of following.values()) stop();
    throw err;
  }
  return () => {
    stopped = true;
    stopTurns();
    for (const stop of following.values()) stop();
    following.clear();
  };
}
