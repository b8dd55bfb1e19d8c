// The live execution tree rebuilt from a tree's run events (live.md §6): one node per run, children under the
// tool call that started them. A view of the events only: the records (tasks, approvals, settle) stay the
// authority on results, and a reader merges them in where it shows final states.
import type { RunEndState, RunEvent, RunKind } from './run-events.ts';

export interface ToolNode {
  toolCallId: string;
  tool: string;
  argsSummary: string;
  state: 'running' | 'succeeded' | 'failed';
  durationMs: number | null;
}

export interface RunNode {
  runId: string;
  kind: RunKind;
  agent: string;
  sessionKey: string;
  mode: 'bounded' | 'independent' | null;
  taskId: string | null;
  parentRunId: string | null;
  parentToolCallId: string | null;
  state: 'running' | RunEndState;
  startedAt: number;
  finishedAt: number | null;
  /** Model requests so far. */
  iterations: number;
  /** This hop's own spend, micro-dollars (its cost events); null when none was recorded (cost not tracked). */
  costMicroUsd: number | null;
  tools: ToolNode[];
  /** Background tasks this run started (their runs appear under it once a worker picks them up). */
  backgroundTasks: { taskId: string; target: string }[];
  /** Approval prompts of this run's calls: where each went and, once settled, how. */
  approvals: ApprovalNode[];
  children: RunNode[];
}

export interface ApprovalNode {
  approvalId: string;
  tool: string;
  /** The channel key the prompt went to, and the chat there. */
  sentTo: string;
  chat: string;
  state: 'pending' | 'approved' | 'always' | 'denied' | 'denied_by_runtime';
}

/** Roots first (normally one), each with its descendants; events of a run never started are ignored. */
export function buildRunTree(events: readonly RunEvent[]): RunNode[] {
  const nodes = new Map<string, RunNode>();
  for (const e of [...events].sort((a, b) => a.seq - b.seq)) {
    if (e.type === 'run_started') {
      nodes.set(e.run_id, {
        runId: e.run_id,
        kind: e.kind,
        agent: e.agent,
        sessionKey: e.session_key,
        mode: e.mode ?? null,
        taskId: e.task_id ?? null,
        parentRunId: e.parent_run_id,
        parentToolCallId: e.parent_tool_call_id,
        state: 'running',
        startedAt: e.at,
        finishedAt: null,
        iterations: 0,
        costMicroUsd: null,
        tools: [],
        backgroundTasks: [],
        approvals: [],
        children: [],
      });
      continue;
    }
    const node = nodes.get(e.run_id);
    if (!node) continue;
    switch (e.type) {
      case 'run_finished':
        node.state = e.state;
        node.finishedAt = e.at;
        break;
      case 'model_request':
        node.iterations = Math.max(node.iterations, e.iteration);
        break;
      case 'tool_started':
        node.tools.push({
          toolCallId: e.tool_call_id,
          tool: e.tool,
          argsSummary: e.args_summary,
          state: 'running',
          durationMs: null,
        });
        break;
      case 'tool_finished': {
        const t = node.tools.find((x) => x.toolCallId === e.tool_call_id && x.state === 'running');
        if (t) {
          t.state = e.success ? 'succeeded' : 'failed';
          t.durationMs = e.duration_ms;
        }
        break;
      }
      case 'background_started':
        node.backgroundTasks.push({ taskId: e.task_id, target: e.target });
        break;
      case 'cost':
        node.costMicroUsd = (node.costMicroUsd ?? 0) + e.micro_usd;
        break;
      case 'approval_pending':
        node.approvals.push({
          approvalId: e.approval_id,
          tool: e.tool,
          sentTo: e.sent_to,
          chat: e.chat,
          state: 'pending',
        });
        break;
      case 'approval_settled': {
        const a = node.approvals.find((x) => x.approvalId === e.approval_id);
        if (a) a.state = e.outcome;
        break;
      }
    }
  }
  const roots: RunNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentRunId ? nodes.get(node.parentRunId) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}
