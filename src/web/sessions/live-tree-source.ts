// What the session page's stream pushes (live.md §6): the session's trees, kept from its turns' run events as the
// session follower delivers them (each event read once), rendered with the records' states when a turn's events,
// a task, an approval or this session's running mark change.
import type { Redis } from 'ioredis';
import type { KeySpace } from '../../core/key-layout.ts';
import type { Logger } from '../../core/logger.ts';
import type { LiveSubscriber } from '../../live/live-subscriber.ts';
import type { RunEventFeed } from '../../live/run-event-feed.ts';
import { followSession } from '../../live/session-follower.ts';
import { readRunningTurn, readSessionTree, viewSessionTree } from '../../live/session-tree.ts';
import type { IndexedTurn } from '../../live/session-turns.ts';
import { readTreeRecords } from '../../live/tree-records.ts';
import type { RunEvent } from '../../run-contract/run-events.ts';
import type { PageSource } from '../live/page-stream.ts';
import { onDashboardChange } from '../live/page-wakes.ts';
import { renderSessionTree } from './tree-render.ts';

export interface LiveTreeDeps {
  redis: Redis;
  prefix: string;
  /** The prefix and partitions: the session's running mark sits in its partition. */
  space: KeySpace;
  logger: Pick<Logger, 'warn'>;
  subscriber: LiveSubscriber;
  runEvents: RunEventFeed;
}

/** One per open page: it holds that page's copy of the trees' events. */
export function liveTreeSource(d: LiveTreeDeps, session: string): PageSource {
  let turns: IndexedTurn[] = [];
  const events = new Map<string, RunEvent[]>();
  let watching = false;
  return {
    async watch(wake) {
      watching = true;
      const stopChanges = await onDashboardChange(
        d.subscriber,
        d.prefix,
        (c) => c.topic !== 'sessions' || c.subject === session,
        wake,
      );
      try {
        const stopFollow = await followSession({
          feed: d.runEvents,
          redis: d.redis,
          space: d.space,
          logger: d.logger,
          session,
          after: new Map(),
          onTurns(now) {
            turns = now;
            for (const root of events.keys()) if (!now.some((t) => t.rootRunId === root)) events.delete(root);
            wake();
          },
          onEvent(e) {
            const list = events.get(e.root_run_id) ?? [];
            list.push(e);
            events.set(e.root_run_id, list);
            wake();
          },
        });
        return () => {
          stopFollow();
          stopChanges();
        };
      } catch (err) {
        stopChanges();
        throw err;
      }
    },
    async render() {
      const view = async (runningRoot: string | null) =>
        // Asked once (the page's slow refresh), everything is read now.
        watching
          ? viewSessionTree(
              session,
              { turns, runningRoot, events: (root) => events.get(root) ?? [] },
              await readTreeRecords(d.redis, d.prefix, d.logger),
            )
          : readSessionTree(d.redis, d.space, d.logger, session);
      const mark = await readRunningTurn(d.redis, d.space, d.logger, session);
      const tree = await view(mark.rootRunId);
      return { html: renderSessionTree(tree).value, running: mark.running ? [session] : [] };
    },
  };
}
