// Builds the RunContext of a delegated child: the target's identity adjusted for the mode (delegate.md §8.1).
import { thinkingOf } from '../../agent/thinking/levels.ts';
import { createApprovalGate } from '../../approval/gate.ts';
import { agentOf, runtimeProfileFor } from '../../config/lookup.ts';
import type { CostScope } from '../../run/cost-contract.ts';
import type { DelegateCapability } from '../../run/delegate-capability.ts';
import type { RunContext, RunObserver, RuntimeServices } from '../../run/run-context.ts';
import type { ThinkingSetting } from '../../run/thinking-setting.ts';
import type { ToolRegistry } from '../../run/tool-registry.ts';
import type { SecurityPolicy } from '../../security/types.ts';
import { type AdmittedTarget, isCompleteRoute } from './gates.ts';

/** What a delegation needs to know about its caller, from a live run or from a background job's payload. */
export interface CallerView {
  alias: string;
  /** The caller's live policy: workspace, effective action limit, command policy. */
  policy: SecurityPolicy;
  bucketOwner: string;
  sender: string;
  sessionKey: string;
  /** Whose background tasks the caller sees (run/task-scope.ts); the child inherits it. */
  taskScope: string;
  rootRunId: string;
  budgetRootId: string | null;
  /** The caller's live tool set (the ceiling of a bounded agentic child). */
  tools: () => ToolRegistry;
  capability: DelegateCapability;
  cost: CostScope;
  toolCallId: string;
  /** The caller's thinking in effect, which a bounded target keeps (§9.7). */
  thinking: ThinkingSetting | undefined;
}

/** §8.1 policy column: bounded keeps the target's policy, with the caller's workspace and a tightened bucket. */
export function childPolicy(
  services: RuntimeServices,
  caller: CallerView,
  t: AdmittedTarget,
): SecurityPolicy {
  if (t.mode === 'independent') return t.policy;
  const callerProfile = agentOf(services.config, caller.alias)?.risk_profile.trim();
  const sameProfile = callerProfile !== undefined && callerProfile === t.policy.riskProfileName;
  return {
    ...t.policy,
    workspaceDir: sameProfile ? caller.policy.workspaceDir : t.policy.workspaceDir,
    maxActionsPerHour: Math.min(caller.policy.maxActionsPerHour, t.policy.maxActionsPerHour),
  };
}

/** §9.7: bounded keeps the caller's thinking with the target's own temperature; independent applies its own. */
export function childThinking(
  services: RuntimeServices,
  caller: CallerView,
  t: AdmittedTarget,
): ThinkingSetting | undefined {
  if (t.mode === 'independent') return thinkingOf(runtimeProfileFor(services.config, t.target));
  return caller.thinking && { ...caller.thinking, keepTemperature: true };
}

export interface ChildRunInput {
  services: RuntimeServices;
  caller: CallerView;
  target: AdmittedTarget;
  runId: string;
  rootRunId: string;
  budgetRootId: string | null;
  signal: AbortSignal;
  delegate: DelegateCapability | null;
  cost: CostScope;
  observers: readonly RunObserver[];
}

export function buildChildRun(input: ChildRunInput): RunContext {
  const { services, caller, target: t } = input;
  const agent = agentOf(services.config, t.target);
  const policy = childPolicy(services, caller, t);
  // Bounded children never have an operator (§8); an independent one with a complete route asks that route only,
  // and its shell calls lose the exemption (approvals.md §7). Each gate is fresh: "Always" covers this run only.
  const routed = t.mode === 'independent' && isCompleteRoute(policy.approvalRoute);
  const asker = routed
    ? (services.approvals?.askerFor({
        agent: t.target,
        caller: caller.alias,
        runId: input.runId,
        rootRunId: input.rootRunId,
        route: policy.approvalRoute,
        routeOnly: true,
      }) ?? null)
    : null;
  const createGate = (p: SecurityPolicy) =>
    createApprovalGate({
      policy: p,
      shellExempt: !routed,
      asker,
      onDecision: (o) => services.metrics?.countApproval(o),
    });
  return {
    services,
    runId: input.runId,
    rootRunId: input.rootRunId,
    agentAlias: t.target,
    sessionKey: caller.sessionKey,
    taskScope: caller.taskScope,
    sender: caller.sender,
    bucketOwner: t.mode === 'bounded' ? caller.bucketOwner : `delegate-run:${input.runId}`,
    isSubagent: false,
    spawnSite: 'tool',
    policy,
    runtime: runtimeProfileFor(services.config, t.target),
    budgetRootId: input.budgetRootId,
    memoryAllowlist: [...new Set([...(agent?.workspace.read_memory_from ?? []), t.target])],
    providerRef: agent?.model_provider ?? '',
    origin: undefined,
    gate: createGate(policy),
    createGate,
    signal: input.signal,
    logger: services.logger,
    delegate: input.delegate,
    cost: input.cost,
    observers: input.observers,
    thinking: childThinking(services, caller, t),
  };
}
