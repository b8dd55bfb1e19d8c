// The Tool contract and the context a tool runs in.
import type { ZodType } from 'zod';
import type { ApprovalReason } from '../channel-host/approval-card.ts';
import type { ToolSpec } from '../providers/types.ts';
import type { RunContext } from './run-context.ts';

export type ToolResult =
  | { success: true; output: string; error: null }
  | { success: false; output: string; error: string }
  /** A result that is not a success but has no error to report (delegate.md §12.1: a task still running). */
  | { success: false; output: string; error: null };

export interface ToolContext {
  run: RunContext;
  toolCallId: string;
  signal: AbortSignal;
  /** The gate left this call's operator prompt to the tool (shell), for these reasons (approval gate `deferred`). */
  deferredApproval?: readonly ApprovalReason[];
}

export interface Tool<I = unknown> {
  readonly name: string;
  readonly description: string;
  /** JSON Schema shown to the model. */
  readonly parameters: Record<string, unknown>;
  /** Validates the model's arguments before execute; a failure is a tool error naming the field. */
  readonly input: ZodType<I>;
  execute(input: I, ctx: ToolContext): Promise<ToolResult>;
}

export function ok(output: string): ToolResult {
  return { success: true, output, error: null };
}

export function fail(error: string, output = ''): ToolResult {
  return { success: false, output, error };
}

export function toolSpec(tool: Tool): ToolSpec {
  return { name: tool.name, description: tool.description, parameters: tool.parameters };
}
