// Shared plumbing of the builtin tools: defensive input parsing, read-only refusal, action charging.
import type { ZodType } from 'zod';
import { errorMessage, RunAbortedError } from '../../core/errors.ts';
import type { RunContext } from '../../run-contract/run-context.ts';
import { fail, type ToolContext, type ToolResult } from '../../run-contract/tool.ts';
import { RATE_LIMIT_EXCEEDED, readOnlyRefusal } from '../../security/security-messages.ts';

export const invalidInputText = (tool: string, detail: string) =>
  `Invalid arguments for tool '${tool}': ${detail}`;

/**
 * Wraps a tool body so malformed input and unexpected errors become failed results; only a cancelled run
 * propagates (the agent loop stops on it).
 */
export function guardedExecute<I>(
  tool: string,
  schema: ZodType<I>,
  body: (input: I, ctx: ToolContext) => Promise<ToolResult>,
): (input: I, ctx: ToolContext) => Promise<ToolResult> {
  return async (input, ctx) => {
    const parsed = schema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? issue.path.map(String).join('.') : '(arguments)';
      return fail(invalidInputText(tool, `${where}: ${issue?.message ?? 'invalid input'}`));
    }
    try {
      return await body(parsed.data, ctx);
    } catch (err) {
      if (err instanceof RunAbortedError || ctx.signal.aborted) throw err;
      return fail(errorMessage(err));
    }
  };
}

/** The refusal an acting tool gives at `level = "readonly"`, or null when it may act. */
export function readOnlyBlock(run: RunContext, tool: string): ToolResult | null {
  return run.policy.autonomy === 'readonly' ? fail(readOnlyRefusal(tool)) : null;
}

/**
 * Records one action in the run's sender bucket (shared with subagents and bounded delegates), as ZeroClaw's
 * acting tools do; returns the refusal when the hourly budget is spent.
 */
export async function chargeAction(run: RunContext): Promise<ToolResult | null> {
  const recorded = await run.services.buckets.tryRecord(
    run.bucketOwner,
    run.sender,
    run.policy.maxActionsPerHour,
  );
  return recorded ? null : fail(RATE_LIMIT_EXCEEDED);
}
