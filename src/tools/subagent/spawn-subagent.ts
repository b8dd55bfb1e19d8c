// The spawn_subagent tool: an isolated child run of the same agent, awaited in the parent's turn (subagents.md).
import { z } from 'zod';
import type { ExecuteRun } from '../../agent/execute-run.ts';
import { createRunContext } from '../../agent/run-context-factory.ts';
import { riskProfileFor } from '../../config/lookup.ts';
import { errorMessage, RunAbortedError } from '../../core/errors.ts';
import { newRunId } from '../../core/ids.ts';
import { withRunScope } from '../../core/logger.ts';
import type { RunContext } from '../../run-contract/run-context.ts';
import { fail, ok, type Tool, type ToolContext, type ToolResult } from '../../run-contract/tool.ts';
import type { ToolRegistry } from '../../run-contract/tool-registry.ts';
import { RATE_LIMIT_EXCEEDED, readOnlyRefusal } from '../../security/security-messages.ts';
import { isToolAdmittedByProfile } from '../../security/tool-filter.ts';
import { resolveSubagentIdentity, type SubAgentOverrides } from './identity.ts';
import {
  DEPTH_CAP,
  EMPTY_OUTPUT,
  MISSING_PROMPT,
  riskProfileRefusal,
  runFailed,
  SPAWN_SUBAGENT_DESCRIPTION,
  SPAWN_SUBAGENT_PARAMETERS,
  spawnFailed,
} from './subagent-messages.ts';

export interface SpawnSubagentDeps {
  /** Builds the child's tool set fresh under the inherited policy (subagents.md §6). */
  buildChildTools(child: RunContext): ToolRegistry;
  executeRun: ExecuteRun;
  /** A spawn site that narrows the child (none today; the validator still guards it). */
  overrides?: SubAgentOverrides;
}

function promptOf(args: unknown): string | null {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return null;
  const p = (args as { prompt?: unknown }).prompt;
  return typeof p === 'string' && p.trim() ? p.trim() : null;
}

/** Steps 1–4 of subagents.md §4: the refusals that come before any identity work. */
async function admit(run: RunContext, args: unknown): Promise<{ prompt: string } | ToolResult> {
  const prompt = promptOf(args);
  if (prompt === null) return fail(MISSING_PROMPT);
  if (run.isSubagent) return fail(DEPTH_CAP);
  const profile = riskProfileFor(run.services.config, run.agentAlias);
  if (profile && !isToolAdmittedByProfile(profile, 'spawn_subagent')) {
    return fail(riskProfileRefusal(run.agentAlias));
  }
  if (run.policy.autonomy === 'readonly') return fail(readOnlyRefusal('spawn_subagent'));
  const recorded = await run.services.buckets.tryRecord(
    run.bucketOwner,
    run.sender,
    run.policy.maxActionsPerHour,
  );
  if (!recorded) return fail(RATE_LIMIT_EXCEEDED);
  return { prompt };
}

export function createSpawnSubagentTool(deps: SpawnSubagentDeps): Tool<unknown> {
  return {
    name: 'spawn_subagent',
    description: SPAWN_SUBAGENT_DESCRIPTION,
    parameters: SPAWN_SUBAGENT_PARAMETERS,
    input: z.unknown(),
    async execute(args, ctx) {
      const admitted = await admit(ctx.run, args);
      if ('success' in admitted) return admitted;
      const identity = resolveSubagentIdentity(ctx.run, deps.overrides);
      if (!identity.ok) return fail(spawnFailed(identity.error));
      return runChild(deps, ctx, admitted.prompt, identity.value);
    },
  };
}

async function runChild(
  deps: SpawnSubagentDeps,
  ctx: ToolContext,
  prompt: string,
  identity: Pick<RunContext, 'policy' | 'memoryAllowlist' | 'providerRef'>,
): Promise<ToolResult> {
  const parent = ctx.run;
  const { services } = parent;
  const runId = newRunId();
  const child = createRunContext({
    kind: 'subagent',
    parent,
    identity,
    runId,
    toolCallId: ctx.toolCallId,
    signal: ctx.signal,
  });
  await services.tasks.create({
    task_id: runId,
    kind: 'subagent',
    agent: parent.agentAlias,
    chain: [parent.agentAlias],
    mode: null,
    status: 'running',
    output: null,
    error: null,
    depth: 1,
    sender: parent.sender,
    owner: services.workerId,
    heartbeat_at: new Date().toISOString(),
    progress: null,
    timeout_budget_secs: null,
    parent_tool_call_id: ctx.toolCallId,
    started_at: new Date().toISOString(),
    finished_at: null,
  });
  const scope = {
    agent_alias: parent.agentAlias,
    session_key: runId,
    span: `agent.${parent.agentAlias}.subagent.${runId}`,
    run_id: runId,
    spawn_site: 'tool',
    parent_tool_call_id: ctx.toolCallId,
  };
  try {
    const out = await withRunScope(scope, () =>
      deps.executeRun({
        run: child,
        tools: deps.buildChildTools(child),
        history: [],
        prompt,
        budget: parent.budgetRootId
          ? { kind: 'child', budget: services.treeBudget, rootRunId: parent.budgetRootId }
          : { kind: 'none' },
      }),
    );
    const output = out.text.trim() ? out.text : EMPTY_OUTPUT;
    await services.history.append(parent.agentAlias, child.sessionKey, runId, [
      { role: 'user', content: prompt },
      ...out.added,
    ]);
    await services.tasks.finish(runId, 'completed', { output });
    return ok(output);
  } catch (err) {
    if (err instanceof RunAbortedError || ctx.signal.aborted) {
      await services.tasks.finish(runId, 'cancelled', { error: 'Cancelled: parent turn aborted' });
      throw err instanceof RunAbortedError ? err : new RunAbortedError();
    }
    const error = runFailed(errorMessage(err));
    await services.tasks.finish(runId, 'failed', { error });
    return fail(error);
  }
}
