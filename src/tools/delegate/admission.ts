// Argument checks and the ordered admission of synchronous and background delegations (delegate.md §6.1–§6.2, §11.1).
import { rootCostScope } from '../../cost/cost-scope.ts';
import type { DelegateCapability } from '../../run-contract/delegate-capability.ts';
import type { AdmittedTarget, CallerView } from '../../run-contract/delegation-view.ts';
import type { RunContext } from '../../run-contract/run-context.ts';
import { taskScopeOf } from '../../run-contract/task-scope.ts';
import { fail, type ToolResult } from '../../run-contract/tool.ts';
import type { ToolRegistry } from '../../run-contract/tool-registry.ts';
import { RATE_LIMIT_EXCEEDED, readOnlyRefusal } from '../../security/security-messages.ts';
import {
  depthLimit,
  EMPTY_AGENT,
  EMPTY_PROMPT,
  MISSING_AGENT,
  MISSING_PROMPT,
  unknownAgent,
} from './delegate-messages.ts';
import { admitTarget, allAgentsList, isConfiguredAgent } from './gates.ts';

export type Args = Record<string, unknown>;

export interface DelegateArgs {
  agent: string;
  prompt: string;
  context: unknown;
}

/** §6.1 step 3: a missing value is an invocation error (the tool throws); a blank one is a refusal. */
export function parseDelegateArgs(args: Args): DelegateArgs | ToolResult {
  if (typeof args.agent !== 'string') throw new Error(MISSING_AGENT);
  const agent = args.agent.trim();
  if (!agent) return fail(EMPTY_AGENT);
  if (typeof args.prompt !== 'string') throw new Error(MISSING_PROMPT);
  if (!args.prompt.trim()) return fail(EMPTY_PROMPT);
  return { agent, prompt: args.prompt, context: args.context };
}

export function callerViewOf(
  run: RunContext,
  cap: DelegateCapability,
  toolCallId: string,
  tools: () => ToolRegistry,
): CallerView {
  return {
    alias: cap.boundAlias,
    runId: run.runId,
    treeRootId: run.lineage.treeRootId,
    policy: run.policy,
    bucketOwner: run.bucketOwner,
    sender: run.sender,
    sessionKey: run.sessionKey,
    taskScope: taskScopeOf(run),
    rootRunId: run.rootRunId,
    budgetRootId: run.budgetRootId,
    tools,
    capability: cap,
    cost: run.cost ?? rootCostScope(run.services.config, run.agentAlias),
    toolCallId,
    thinking: run.thinking,
  };
}

/** §6.2 step 3: autonomy, then one action from the caller's bucket. */
export async function chargeCaller(run: RunContext): Promise<ToolResult | null> {
  if (run.policy.autonomy === 'readonly') return fail(readOnlyRefusal('delegate'));
  const ok = await run.services.buckets.tryRecord(run.bucketOwner, run.sender, run.policy.maxActionsPerHour);
  return ok ? null : fail(RATE_LIMIT_EXCEEDED);
}

/** §6.2 steps 1–5 (and §11.1 steps 1–5): unknown target, depth, autonomy and bucket, gates, always_ask. */
export async function admitDelegation(
  run: RunContext,
  cap: DelegateCapability,
  target: string,
): Promise<{ ok: true; value: AdmittedTarget } | { ok: false; result: ToolResult }> {
  const { config } = run.services;
  if (!isConfiguredAgent(config, target)) {
    return { ok: false, result: fail(unknownAgent(target, allAgentsList(config))) };
  }
  if (cap.depth >= cap.cap) return { ok: false, result: fail(depthLimit(cap.depth, cap.cap)) };
  const charged = await chargeCaller(run);
  if (charged) return { ok: false, result: charged };
  const gate = admitTarget(config, cap.boundAlias, run.policy, target, run.logger);
  return gate.ok ? gate : { ok: false, result: fail(gate.error) };
}
