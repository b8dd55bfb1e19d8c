// Background delegation admission (delegate.md §11.1): checks, the atomic task record, the artifact, the job.

import { newRunId } from '../../core/ids.ts';
import { rootCostScope } from '../../cost/cost-scope.ts';
import { createDelegateTasks } from '../../delegation/delegate-tasks.ts';
import type { TaskRecord } from '../../delegation/task-records.ts';
import type { DelegateCapability } from '../../run-contract/delegate-capability.ts';
import type { RunContext } from '../../run-contract/run-context.ts';
import { taskScopeOf } from '../../run-contract/task-scope.ts';
import { fail, ok, type ToolResult } from '../../run-contract/tool.ts';
import type { ToolRegistry } from '../../run-contract/tool-registry.ts';
import { admitDelegation, type DelegateArgs } from './admission.ts';
import { writeArtifact } from './artifact.ts';
import { chainOf, grantedCapability } from './capability.ts';
import { BACKGROUND_UNAVAILABLE, backgroundStarted, TOO_MANY_IN_FLIGHT } from './delegate-messages.ts';
import { composePrompt, timeLimitSecs } from './execute.ts';

export interface BackgroundInput {
  run: RunContext;
  cap: DelegateCapability;
  args: DelegateArgs;
  toolCallId: string;
  callerTools: () => ToolRegistry;
}

export async function startBackground(input: BackgroundInput): Promise<ToolResult> {
  const { run, cap, args } = input;
  const { services } = run;
  const admitted = await admitDelegation(run, cap, args.agent);
  if (!admitted.ok) return admitted.result;
  const t = admitted.value;
  if (!services.delegation) return fail(BACKGROUND_UNAVAILABLE);
  const tasks = createDelegateTasks(services.redis, services.config.redis.prefix, services.logger);
  const taskId = newRunId();
  const timeout = timeLimitSecs(services, t.target, t.agentic);
  const chain = chainOf(cap);
  const record: TaskRecord = {
    task_id: taskId,
    kind: 'delegate',
    agent: t.target,
    chain,
    mode: t.mode,
    status: 'running',
    output: null,
    error: null,
    depth: cap.depth + 1,
    sender: run.sender,
    owner: null,
    heartbeat_at: null,
    progress: null,
    timeout_budget_secs: timeout,
    parent_tool_call_id: input.toolCallId,
    started_at: new Date().toISOString(),
    finished_at: null,
    scope: taskScopeOf(run),
  };
  if (!(await tasks.admit(record))) return fail(TOO_MANY_IN_FLIGHT);
  const workspace = run.policy.workspaceDir;
  await writeArtifact(workspace, taskId, t.target, null);
  await services.delegation.enqueue({
    task_id: taskId,
    caller: cap.boundAlias,
    chain,
    target: t.target,
    mode: t.mode,
    prompt: composePrompt(args.prompt, args.context),
    depth: cap.depth + 1,
    cap: grantedCapability(services.config, cap, t.target).cap,
    sender: run.sender,
    caller_bucket_owner: run.bucketOwner,
    caller_action_limit: run.policy.maxActionsPerHour,
    caller_workspace: workspace,
    caller_tools: [...input.callerTools().names],
    cost: {
      ...(run.cost ?? rootCostScope(services.config, run.agentAlias)),
      ancestors: [...(run.cost?.ancestors ?? [])],
    },
    receipts: false,
    parent_session_key: run.sessionKey,
    task_scope: taskScopeOf(run),
    parent_tool_call_id: input.toolCallId,
    tree_root_run_id: run.lineage.treeRootId,
    parent_run_id: run.runId,
    timeout_secs: timeout,
    ...(run.thinking ? { caller_thinking: run.thinking } : {}),
  });
  services.events.emit(run, { type: 'background_started', task_id: taskId, target: t.target });
  return ok(backgroundStarted(t.target, taskId));
}
