// The live execution tree as the operations API serves it (live.md §6): rebuilt from the tree's run events, with
// every background task's state taken from its task record, the authority (a launch is never shown as the
// child's completion, and a task is `completed` only once its record says so), its runs' pending approvals from
// their records, and each node's link to the transcript its work is recorded in.
import type { Redis } from 'ioredis';
import type { KeySpace } from '../core/key-layout.ts';
import type { Logger } from '../core/logger.ts';
import type { RunEvent } from '../run-contract/run-events.ts';
import { buildRunTree, type RunNode } from '../run-contract/run-tree.ts';
import { createRunEventLog } from './run-event-log.ts';
import { transcriptUrl } from './transcript-link.ts';
import { type PendingApprovalView, readTreeRecords, type TreeRecords } from './tree-records.ts';

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
  /** This hop's own spend in USD (its cost events); null when cost is not tracked. */
  cost_usd: number | null;
  /**
   * The dashboard transcript of this run: its own for a root, cron or spawn_subagent run; a delegated or
   * background child keeps no history of its own, so its caller's (where its card is).
   */
  transcript_url: string;
  tools: {
    tool_call_id: string;
    tool: string;
    args_summary: string;
    state: string;
    duration_ms: number | null;
  }[];
  pending_approvals: PendingApprovalView[];
  background_tasks: { task_id: string; target: string; state: string }[];
  children: RunNodeView[];
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const ownsTranscript = (n: RunNode) => n.kind === 'root' || n.kind === 'cron' || n.kind === 'subagent';

/** The views of a tree's roots (normally one), from its events and the records. */
export function viewRunTree(events: readonly RunEvent[], records: TreeRecords): Promise<RunNodeView[]> {
  const view = async (n: RunNode, callerTranscript: string | null): Promise<RunNodeView> => {
    const transcript =
      ownsTranscript(n) || callerTranscript === null
        ? transcriptUrl(n.agent, n.sessionKey)
        : callerTranscript;
    const fromRecord = n.kind === 'background' && n.taskId ? await records.taskStatus(n.taskId) : null;
    return {
      run_id: n.runId,
      kind: n.kind,
      agent: n.agent,
      session_key: n.sessionKey,
      mode: n.mode,
      task_id: n.taskId,
      parent_run_id: n.parentRunId,
      parent_tool_call_id: n.parentToolCallId,
      state: fromRecord ?? n.state,
      started_at: iso(n.startedAt) as string,
      finished_at: iso(n.finishedAt),
      iterations: n.iterations,
      cost_usd: n.costMicroUsd === null ? null : n.costMicroUsd / 1_000_000,
      transcript_url: transcript,
      tools: n.tools.map((t) => ({
        tool_call_id: t.toolCallId,
        tool: t.tool,
        args_summary: t.argsSummary,
        state: t.state,
        duration_ms: t.durationMs,
      })),
      pending_approvals: records.pendingApprovals(n.runId),
      background_tasks: await Promise.all(
        n.backgroundTasks.map(async (b) => ({
          task_id: b.taskId,
          target: b.target,
          state: (await records.taskStatus(b.taskId)) ?? 'unknown',
        })),
      ),
      children: await Promise.all(n.children.map((c) => view(c, transcript))),
    };
  };
  return Promise.all(buildRunTree(events).map((n) => view(n, null)));
}

/** The tree under `rootRunId`, or null when no event of it is stored (unknown, or older than an hour). */
export async function liveRunTree(
  redis: Redis,
  space: KeySpace,
  logger: Pick<Logger, 'warn'>,
  rootRunId: string,
): Promise<RunNodeView[] | null> {
  const events = await createRunEventLog(redis, space, logger).read(rootRunId);
  if (events.length === 0) return null;
  return viewRunTree(events, await readTreeRecords(redis, space.prefix, logger));
}
