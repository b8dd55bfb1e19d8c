// Runs one background delegation job in a worker: a prevalidated delegation at depth d + 1 (delegate.md §11.5).
import type { ExecuteRun } from '../../agent/execute-run.ts';
import { createRunContext } from '../../agent/run-context-factory.ts';
import { runtimeProfileFor } from '../../config/lookup.ts';
import { errorMessage } from '../../core/errors.ts';
import { withRunScope } from '../../core/logger.ts';
import { createDelegateTasks } from '../../delegation/delegate-tasks.ts';
import type { DelegateJobPayload } from '../../delegation/delegation-services.ts';
import type { DelegateCapability } from '../../run-contract/delegate-capability.ts';
import type { CallerView } from '../../run-contract/delegation-view.ts';
import type { RunContext, RunObserver, RuntimeServices } from '../../run-contract/run-context.ts';
import { fail, type ToolResult } from '../../run-contract/tool.ts';
import type { ToolRegistry } from '../../run-contract/tool-registry.ts';
import { buildSecurityPolicy } from '../../security/policy.ts';
import { RATE_LIMIT_EXCEEDED } from '../../security/security-messages.ts';
import { writeArtifact } from './artifact.ts';
import { targetPolicyFailed, UNKNOWN_ERROR } from './delegate-messages.ts';
import { createDelegateTool } from './delegate-tool.ts';
import { executeDelegation } from './execute.ts';
import { createProgressTracker } from './progress.ts';

export interface BackgroundDeps {
  buildToolSet(run: RunContext, opts?: { remove?: readonly string[] }): ToolRegistry;
  executeRun: ExecuteRun;
}

/** The caller as the job payload describes it; its tools are rebuilt and cut to the names it had. */
function callerOf(services: RuntimeServices, p: DelegateJobPayload, deps: BackgroundDeps): CallerView {
  const base = buildSecurityPolicy(services.config, p.caller);
  const policy = { ...base, workspaceDir: p.caller_workspace, maxActionsPerHour: p.caller_action_limit };
  const capability: DelegateCapability = {
    depth: p.depth - 1,
    cap: p.cap,
    boundAlias: p.caller,
    delegateOnly: true,
    ancestors: p.chain.slice(0, -1),
  };
  const callerRun = createRunContext({
    kind: 'background',
    services,
    caller: p.caller,
    taskId: p.task_id,
    sessionKey: p.parent_session_key,
    taskScope: p.task_scope ?? p.parent_session_key,
    sender: p.sender,
    bucketOwner: p.caller_bucket_owner,
    policy,
    capability,
    lineage: {
      kind: 'background',
      treeRootId: p.tree_root_run_id ?? p.task_id,
      parentRunId: p.parent_run_id ?? null,
      parentToolCallId: p.parent_tool_call_id,
    },
  });
  let tools: ToolRegistry | undefined;
  return {
    alias: p.caller,
    runId: p.parent_run_id ?? p.task_id,
    treeRootId: p.tree_root_run_id ?? p.task_id,
    backgroundTaskId: p.task_id,
    policy,
    bucketOwner: p.caller_bucket_owner,
    sender: p.sender,
    sessionKey: p.parent_session_key,
    taskScope: p.task_scope ?? p.parent_session_key,
    rootRunId: p.task_id,
    budgetRootId: null,
    tools: () => {
      const names = new Set(p.caller_tools);
      tools ??= deps.buildToolSet(callerRun).filter((n) => names.has(n));
      return tools;
    },
    capability,
    cost: p.cost,
    toolCallId: p.parent_tool_call_id,
    thinking: p.caller_thinking,
  };
}

async function runPrevalidated(
  services: RuntimeServices,
  p: DelegateJobPayload,
  signal: AbortSignal,
  deps: BackgroundDeps,
  observer: RunObserver,
): Promise<ToolResult> {
  let targetPolicy: ReturnType<typeof buildSecurityPolicy>;
  try {
    targetPolicy = buildSecurityPolicy(services.config, p.target);
  } catch (err) {
    return fail(targetPolicyFailed(p.target, errorMessage(err)));
  }
  // One action on the bucket of the target's mode: the caller's (tightened) or a fresh one.
  const charged =
    p.mode === 'bounded'
      ? await services.buckets.tryRecord(
          p.caller_bucket_owner,
          p.sender,
          Math.min(p.caller_action_limit, targetPolicy.maxActionsPerHour),
        )
      : await services.buckets.tryRecord(
          `delegate-task:${p.task_id}`,
          p.sender,
          targetPolicy.maxActionsPerHour,
        );
  if (!charged) return fail(RATE_LIMIT_EXCEEDED);
  const caller = callerOf(services, p, deps);
  return executeDelegation({
    services,
    caller,
    target: {
      target: p.target,
      mode: p.mode,
      agentic: runtimeProfileFor(services.config, p.target).agentic,
      policy: targetPolicy,
    },
    prompt: p.prompt,
    signal,
    newRoot: true,
    observers: [observer],
    logScope: { task_id: p.task_id },
    deps: {
      ...deps,
      createGrant: (capability, childTools, policy) =>
        createDelegateTool({
          capability,
          callerTools: childTools,
          rosterFor: capability.boundAlias,
          rosterPolicy: policy,
          config: services.config,
          deps,
        }),
    },
  });
}

/**
 * Runs the job to a terminal record; a record already settled (e.g. cancelled while queued) is left alone.
 * True when this run settled it (its end is then this process's to announce).
 */
export async function runBackgroundTask(
  services: RuntimeServices,
  p: DelegateJobPayload,
  signal: AbortSignal,
  deps: BackgroundDeps,
  heartbeatMs?: number,
): Promise<boolean> {
  const tasks = createDelegateTasks(services.redis, services.config.redis.prefix, services.logger);
  const rec = await tasks.get(p.task_id);
  if (rec?.status !== 'running') return false;
  const progress = createProgressTracker(tasks, p.task_id, p.timeout_secs, services.logger, heartbeatMs);
  await progress.start(services.workerId);
  let result: ToolResult;
  try {
    result = await withRunScope({ task_id: p.task_id, agent_alias: p.target }, () =>
      runPrevalidated(services, p, signal, deps, progress.observer),
    );
  } catch (err) {
    const reason: unknown = signal.reason;
    result = fail(signal.aborted && reason instanceof Error ? reason.message : errorMessage(err));
  } finally {
    progress.stop();
  }
  const settled = result.success
    ? await tasks.settle(p.task_id, 'completed', { output: result.output })
    : await tasks.settle(p.task_id, (result.error ?? '').includes('Cancelled') ? 'cancelled' : 'failed', {
        error: result.error ?? UNKNOWN_ERROR,
      });
  if (settled)
    await writeArtifact(p.caller_workspace, p.task_id, p.target, result.success ? result.output : null);
  return settled;
}
