// A session's live execution trees (live.md §6): its running turn and its recent turns, each rebuilt from its run
// events with the records merged in. The running turn is the one the session's running mark names (the record of
// a turn until its settle), so its root shows `running` until the settle, whatever its events already say.
import type { Redis } from 'ioredis';
import { isUuid } from '../core/ids.ts';
import type { KeySpace } from '../core/key-layout.ts';
import type { Logger } from '../core/logger.ts';
import { createRunningTurns } from '../fleet/running-turns.ts';
import type { RunEvent } from '../run-contract/run-events.ts';
import { createRunEventLog } from './run-event-log.ts';
import { type RunNodeView, viewRunTree } from './run-tree-view.ts';
import { type IndexedTurn, readRecentTurns } from './session-turns.ts';
import { readTreeRecords, type TreeRecords } from './tree-records.ts';

export interface TurnTreeView {
  root_run_id: string;
  /** Null for a running turn whose first events are not written yet. */
  started_at: string | null;
  runs: RunNodeView[];
}

export interface SessionTreeView {
  session: string;
  running: TurnTreeView | null;
  /** The session's other recent turns, newest first (with the running one, at most RECENT_TURNS). */
  recent: TurnTreeView[];
}

/** The parts of a session's trees: its indexed turns, its running turn's root, and each turn's events. */
export interface SessionTreeSource {
  turns: IndexedTurn[];
  runningRoot: string | null;
  events(root: string): readonly RunEvent[];
}

/** The view of `source` with the records' states (shared by the JSON route and the pushed dashboard page). */
export async function viewSessionTree(
  session: string,
  source: SessionTreeSource,
  records: TreeRecords,
): Promise<SessionTreeView> {
  const turnView = async (root: string, startedAt: number | null): Promise<TurnTreeView> => {
    const runs = await viewRunTree(source.events(root), records);
    // Its end is written with its settle (history and reply); until then the turn still runs.
    for (const r of runs)
      if (r.run_id === source.runningRoot) Object.assign(r, { state: 'running', finished_at: null });
    return {
      root_run_id: root,
      started_at: startedAt === null ? null : new Date(startedAt).toISOString(),
      runs,
    };
  };
  const { runningRoot } = source;
  const indexed = source.turns.find((t) => t.rootRunId === runningRoot);
  const [running, recent] = await Promise.all([
    runningRoot ? turnView(runningRoot, indexed?.startedAt ?? null) : null,
    Promise.all(
      source.turns.filter((t) => t.rootRunId !== runningRoot).map((t) => turnView(t.rootRunId, t.startedAt)),
    ),
  ]);
  return { session, running, recent };
}

/** Whether the session's running mark stands, and the root run id it names (null when none or unreadable). */
export async function readRunningTurn(
  redis: Redis,
  space: KeySpace,
  logger: Pick<Logger, 'warn'>,
  session: string,
): Promise<{ running: boolean; rootRunId: string | null }> {
  const mark = await createRunningTurns(redis, space, logger).get(session);
  const root = mark?.rootRunId;
  return { running: mark !== null, rootRunId: root && isUuid(root) ? root : null };
}

/** Read from Redis in one go (GET /api/sessions/:id/tree). */
export async function readSessionTree(
  redis: Redis,
  space: KeySpace,
  logger: Pick<Logger, 'warn'>,
  session: string,
): Promise<SessionTreeView> {
  const { prefix } = space;
  const log = createRunEventLog(redis, space, logger);
  const [turns, { rootRunId: runningRoot }, records] = await Promise.all([
    readRecentTurns(redis, space, session, logger),
    readRunningTurn(redis, space, logger, session),
    readTreeRecords(redis, prefix, logger),
  ]);
  const roots = [...new Set([...(runningRoot ? [runningRoot] : []), ...turns.map((t) => t.rootRunId)])];
  const read = await Promise.all(roots.map((r) => log.read(r)));
  const byRoot = new Map(roots.map((r, i) => [r, read[i] ?? []]));
  return viewSessionTree(session, { turns, runningRoot, events: (r) => byRoot.get(r) ?? [] }, records);
}
