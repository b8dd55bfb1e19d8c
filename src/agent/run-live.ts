// A run's live events (live.md §1) at the points the loop passes: started and finished (with its end state),
// each model request, each tool call. Emitting only queues (RuntimeServices.events), so none of this can slow or
// fail the run.
import { summarizeArgs } from '../approval/args-summary.ts';
import type { PromptWatcher } from '../approval/gate.ts';
import { RunAbortedError } from '../core/errors.ts';
import type { ToolCall } from '../providers/types.ts';
import type { RunContext, RuntimeServices } from '../run-contract/run-context.ts';
import type { RunEndState, RunLineage } from '../run-contract/run-events.ts';
import type { ToolResult } from '../run-contract/tool.ts';
import { outboundRedactor } from './outbound-redact.ts';

/** How a run ended, read from its error and signal: a time limit aborts with RunAbortedError('timeout'). */
export function endStateOf(run: Pick<RunContext, 'signal'>, err: unknown): RunEndState {
  if (err === undefined) return 'completed';
  const reason: unknown = run.signal.aborted ? run.signal.reason : err;
  if (reason instanceof RunAbortedError) return reason.message === 'timeout' ? 'timed_out' : 'cancelled';
  return run.signal.aborted ? 'cancelled' : 'failed';
}

/** Runs `body` between the run's started and finished events. */
export async function withRunEvents<T>(run: RunContext, body: () => Promise<T>): Promise<T> {
  const { lineage } = run;
  run.services.events.emit(run, {
    type: 'run_started',
    kind: lineage.kind,
    agent: run.agentAlias,
    session_key: run.sessionKey,
    ...(lineage.mode ? { mode: lineage.mode } : {}),
    ...(lineage.taskId ? { task_id: lineage.taskId } : {}),
  });
  try {
    const out = await body();
    run.services.events.emit(run, { type: 'run_finished', state: 'completed' });
    return out;
  } catch (err) {
    run.services.events.emit(run, { type: 'run_finished', state: endStateOf(run, err) });
    throw err;
  }
}

export const emitModelRequest = (run: RunContext, iteration: number): void =>
  run.services.events.emit(run, { type: 'model_request', iteration });

/** The approval gate's prompts as the run's live events. */
export function promptEvents(
  services: RuntimeServices,
  run: { runId: string; lineage: RunLineage },
): PromptWatcher {
  return {
    pending: (p) =>
      services.events.emit(run, {
        type: 'approval_pending',
        approval_id: p.approvalId,
        tool: p.tool,
        sent_to: p.channel,
        chat: p.chat,
      }),
    settled: (id, outcome) =>
      services.events.emit(run, { type: 'approval_settled', approval_id: id, outcome }),
  };
}

/** The provider's `onText` for one request: each growth of the visible answer as a delta event. */
export function answerDeltas(run: RunContext, iteration: number): (visibleText: string) => void {
  let shown = '';
  return (text) => {
    if (text === shown) return;
    const grows = text.startsWith(shown);
    const delta = grows ? text.slice(shown.length) : text;
    shown = text;
    run.services.events.emit(run, { type: 'answer_delta', iteration, delta, restart: !grows });
  };
}

/** Around one tool call: the summary is the approval card's (§4 rules), redacted like everything leaving. */
export async function withToolEvents(
  run: RunContext,
  call: ToolCall,
  body: () => Promise<ToolResult>,
): Promise<ToolResult> {
  const startedAt = Date.now();
  const args = typeof call.arguments === 'string' ? '' : summarizeArgs(call.arguments);
  run.services.events.emit(run, {
    type: 'tool_started',
    tool_call_id: call.id,
    tool: call.name,
    args_summary: outboundRedactor(run.services)(args),
  });
  let success = false;
  try {
    const result = await body();
    success = result.success;
    return result;
  } finally {
    run.services.events.emit(run, {
      type: 'tool_finished',
      tool_call_id: call.id,
      tool: call.name,
      success,
      duration_ms: Math.max(0, Date.now() - startedAt),
    });
  }
}
