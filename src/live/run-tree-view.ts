// The live execution tree as the operations API serves it (live.md §6): rebuilt from the tree's run events, with
// every background task's state taken from its task record, the authority (a launch is never shown as the
// child's completion, and a task is `completed` only once its record says so).
import type { Redis } from 'ioredis';
import type { Logger } from '../core/logger.ts';
import { createTaskRecords } from '../delegation/task-records.ts';
import { buildRunTree, type RunNode } from '../run-contract/run-tree.ts';
import { createRunEventLog } from './run-event-log.ts';

export interface RunNodeView {
  run_id: string;
  kind: RunNode['kind'];
  agent: string;
  session_key: string;
  mode: RunNode['mode'];
  task_id: string | null;
  parent_run_id: string | null;
  parent_tool_call_id: string | null;
  /** From the task record for a background task, else from the run's own events. */
  state: string;
  started_at: string;
  finished_at: string | null;
  iterations: number;
  tools: {
    tool_call_id: string;
    tool: string;
    args_summary: string;
    state: string;
    duration_ms: number | null;
  }[];
  background_tasks: { task_id: string; target: string; state: string }[];
  children: RunNodeView[];
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The tree under `rootRunId`, or null when no event of it is stored (unknown, or older than an hour). */
export async function liveRunTree(
  redis: Redis,
  prefix: string,
  logger: Pick<Logger, 'warn'>,
  rootRunId: string,
): Promise<RunNodeView[] | null> {
  const events = await createRunEventLog(redis, prefix, logger).read(rootRunId);
  if (events.length === 0) return null;
  const records = createTaskRecords(redis, prefix, logger);
  // A task appears twice (under its launcher and as its own node): its record is read once.
  const statuses = new Map<string, Promise<string | null>>();
  const statusOf = (taskId: string | null): Promise<string | null> => {
    if (!taskId) return Promise.resolve(null);
    let status = statuses.get(taskId);
    if (!status) {
      status = records.get(taskId).then((r) => r?.status ?? null);
      statuses.set(taskId, status);
    }
    return status;
  };
  const view = async (n: RunNode): Promise<RunNodeView> => ({
    run_id: n.runId,
    kind: n.kind,
    agent: n.agent,
    session_key: n.sessionKey,
    mode: n.mode,
    task_id: n.taskId,
    parent_run_id: n.parentRunId,
    parent_tool_call_id: n.parentToolCallId,
    state: (n.kind === 'background' ? await statusOf(n.taskId) : null) ?? n.state,
    started_at: iso(n.startedAt) as string,
    finished_at: iso(n.finishedAt),
    iterations: n.iterations,
    tools: n.tools.map((t) => ({
      tool_call_id: t.toolCallId,
      tool: t.tool,
      args_summary: t.argsSummary,
      state: t.state,
      duration_ms: t.durationMs,
    })),
    background_tasks: await Promise.all(
      n.backgroundTasks.map(async (b) => ({ ...b, state: (await statusOf(b.taskId)) ?? 'unknown' })),
    ).then((list) => list.map((b) => ({ task_id: b.taskId, target: b.target, state: b.state }))),
    children: await Promise.all(n.children.map(view)),
  });
  return Promise.all(buildRunTree(events).map(view));
}
