// Runs one model tool call: duplicate guard → approval gate → argument validation → tool, never throwing.

import { DENIED_BY_USER, notRunText, OPERATOR_HINT } from '../approval/approval-messages.ts';
import type { ApprovalReason } from '../channel-host/approval-card.ts';
import { errorMessage, RunAbortedError } from '../core/errors.ts';
import type { ToolCall } from '../providers/types.ts';
import type { RunContext } from '../run-contract/run-context.ts';
import { fail, type Tool, type ToolResult } from '../run-contract/tool.ts';
import type { ToolRegistry } from '../run-contract/tool-registry.ts';
import type { DuplicateGuard } from './duplicate-guard.ts';
import { duplicateCallText } from './duplicate-guard.ts';

export const unknownToolText = (name: string, available: readonly string[]) =>
  `Unknown tool '${name}'. Available tools: ${available.length ? available.join(', ') : '(none)'}`;

export const invalidJsonText = (name: string) =>
  `Invalid arguments for tool '${name}': arguments are not valid JSON`;

function zodIssueText(
  name: string,
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): string {
  const parts = issues.slice(0, 3).map((i) => {
    const where = i.path.length ? i.path.map(String).join('.') : '(arguments)';
    return `${where}: ${i.message}`;
  });
  return `Invalid arguments for tool '${name}': ${parts.join('; ')}`;
}

export async function dispatchToolCall(
  run: RunContext,
  registry: ToolRegistry,
  guard: DuplicateGuard,
  call: ToolCall,
): Promise<ToolResult> {
  const tool = registry.get(call.name);
  if (!tool) return fail(unknownToolText(call.name, registry.names));
  if (typeof call.arguments === 'string') return fail(invalidJsonText(call.name));
  if (guard.isDuplicate(call.name, call.arguments)) return fail(duplicateCallText(call.name));

  const outcome = await run.gate.check(call.name, call.arguments, run.signal);
  if (outcome.kind === 'denied_by_user') return fail(DENIED_BY_USER);
  if (outcome.kind === 'denied_by_runtime') {
    run.logger.warn(
      { tool: call.name, denied_by_runtime: true, reason: outcome.reason, operator_hint: OPERATOR_HINT },
      'tool call denied by runtime',
    );
    return fail(notRunText(outcome.reason, call.name));
  }

  const parsed = tool.input.safeParse(call.arguments ?? {});
  if (!parsed.success) return fail(zodIssueText(call.name, parsed.error.issues));
  const result = await executeTool(run, tool, parsed.data, call.id, outcome.deferred);
  run.logger.info({ tool: call.name, tool_call_id: call.id, success: result.success }, 'tool call finished');
  run.services.metrics.countToolCall(call.name, result.success);
  return result;
}

async function executeTool(
  run: RunContext,
  tool: Tool,
  input: unknown,
  toolCallId: string,
  deferredApproval: readonly ApprovalReason[] | undefined,
): Promise<ToolResult> {
  try {
    return await tool.execute(input, {
      run,
      toolCallId,
      signal: run.signal,
      ...(deferredApproval?.length ? { deferredApproval } : {}),
    });
  } catch (err) {
    if (err instanceof RunAbortedError || run.signal.aborted) throw err;
    return fail(errorMessage(err));
  }
}
