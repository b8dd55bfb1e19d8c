// The one place a RunContext is made. Each kind of run says what it inherits and what is its own:
//   root / cron   a top-level turn: the agent's own policy, runtime, memory and thinking; a fresh gate that asks
//                 the turn's asker (shell-exempt); its own cost scope (delegate.md §15)
//   subagent      spawn_subagent: the parent's context verbatim (policy, bucket, budget, cost, observers), a
//                 fresh session and gate, and no further spawning (subagents.md §6)
//   child         a delegated target (sync, parallel or background): the target's identity adjusted for the
//                 mode (delegate.md §8.1), a gate from the target's profile (approvals.md §5, §7)
//   background    the caller of a background job, rebuilt from its payload: no operator, no budget

import type { ApprovalAsker } from '../approval/gate.ts';
import { createApprovalGate } from '../approval/gate.ts';
import { requesterOfSender } from '../approval/requester.ts';
import type { Recipient } from '../channel-host/types.ts';
import { agentOf, isCompleteRoute, runtimeProfileFor } from '../config/lookup.ts';
import { createCostObserver } from '../cost/cost-scope.ts';
import type { CostScope } from '../run-contract/cost-contract.ts';
import type { DelegateCapability } from '../run-contract/delegate-capability.ts';
import type { AdmittedTarget, CallerView } from '../run-contract/delegation-view.ts';
import type { RunContext, RunObserver, RuntimeServices } from '../run-contract/run-context.ts';
import type { RunLineage } from '../run-contract/run-events.ts';
import { taskScopeOf } from '../run-contract/task-scope.ts';
import type { ThinkingSetting } from '../run-contract/thinking-setting.ts';
import type { TurnFiles } from '../run-contract/turn-files.ts';
import { buildSecurityPolicy } from '../security/policy.ts';
import type { SecurityPolicy } from '../security/types.ts';
import { promptEvents } from './run-live.ts';
import { thinkingOf } from './thinking/levels.ts';

export interface TopLevelRunSpec {
  kind: 'root' | 'cron';
  services: RuntimeServices;
  agentAlias: string;
  runId: string;
  sessionKey: string;
  sender: string;
  /** The chat the turn came from, if any. */
  origin: Recipient | undefined;
  /** Where send_file queues files (media.md §2); absent: the run has no chat to send to. */
  files?: TurnFiles;
  asker: ApprovalAsker | null;
  signal: AbortSignal;
  /** The model in effect for the session (a model_switch may have changed it). */
  providerRef: string;
  /** Set when the runtime profile gives the tree a budget (created before the run). */
  budgetRootId: string | null;
  cost: CostScope;
}

export interface SubagentRunSpec {
  kind: 'subagent';
  parent: RunContext;
  /** The identity the spawn resolved (subagents.md §6): inherited unless a spawn site narrows it. */
  identity: Pick<RunContext, 'policy' | 'memoryAllowlist' | 'providerRef'>;
  runId: string;
  /** The parent's spawn_subagent call. */
  toolCallId: string;
  signal: AbortSignal;
}

export interface ChildRunSpec {
  kind: 'child';
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
  /** A background task's child (its own tree budget, started by a job), else a delegate within the turn. */
  background?: boolean;
}

export interface BackgroundCallerSpec {
  kind: 'background';
  services: RuntimeServices;
  /** The caller agent and what its payload recorded of it. */
  caller: string;
  taskId: string;
  sessionKey: string;
  /** The conversation the task belongs to (its background tasks are that conversation's). */
  taskScope: string;
  sender: string;
  bucketOwner: string;
  policy: SecurityPolicy;
  capability: DelegateCapability;
  /** Where the caller sat in its turn's live tree, from the job payload. */
  lineage: RunLineage;
}

export type RunContextSpec = TopLevelRunSpec | SubagentRunSpec | ChildRunSpec | BackgroundCallerSpec;

export function createRunContext(spec: RunContextSpec): RunContext {
  switch (spec.kind) {
    case 'root':
    case 'cron':
      return topLevelRun(spec);
    case 'subagent':
      return subagentRun(spec);
    case 'child':
      return childRun(spec);
    default:
      return backgroundCallerRun(spec);
  }
}

const memoryOf = (services: RuntimeServices, alias: string) => [
  ...new Set([...(agentOf(services.config, alias)?.workspace.read_memory_from ?? []), alias]),
];

function topLevelRun(spec: TopLevelRunSpec): RunContext {
  const { services, agentAlias } = spec;
  const policy = buildSecurityPolicy(services.config, agentAlias);
  const runtime = runtimeProfileFor(services.config, agentAlias);
  const lineage: RunLineage = {
    kind: spec.kind,
    treeRootId: spec.runId,
    parentRunId: null,
    parentToolCallId: null,
  };
  // A subagent's gate asks the same chat or route, under the child's own run id (its records and live events).
  const createGate = (p: SecurityPolicy, run = { runId: spec.runId, lineage }) =>
    createApprovalGate({
      policy: p,
      shellExempt: true,
      asker: run.runId === spec.runId ? spec.asker : (spec.asker?.forRun?.(run.runId) ?? spec.asker),
      onDecision: (o) => services.metrics.countApproval(o),
      prompts: promptEvents(services, run),
    });
  return {
    services,
    runId: spec.runId,
    rootRunId: spec.runId,
    lineage,
    agentAlias,
    sessionKey: spec.sessionKey,
    sender: spec.sender,
    bucketOwner: agentAlias,
    isSubagent: false,
    spawnSite: spec.kind,
    policy,
    runtime,
    budgetRootId: spec.budgetRootId,
    memoryAllowlist: memoryOf(services, agentAlias),
    providerRef: spec.providerRef,
    origin: spec.origin,
    ...(spec.files ? { files: spec.files } : {}),
    gate: createGate(policy),
    createGate,
    signal: spec.signal,
    logger: services.logger,
    // Root turns record their spend under the agent's alias; the tree's cost context is decided here (§15).
    cost: spec.cost,
    observers: [createCostObserver(spec.cost, false)],
    thinking: thinkingOf(runtime),
  };
}

function subagentRun(spec: SubagentRunSpec): RunContext {
  const { parent, identity, runId } = spec;
  const lineage: RunLineage = {
    kind: 'subagent',
    treeRootId: parent.lineage.treeRootId,
    parentRunId: parent.runId,
    parentToolCallId: spec.toolCallId,
  };
  return {
    ...parent,
    ...identity,
    runId,
    lineage,
    sessionKey: `subagent-${runId}`,
    // Its background tasks belong to the conversation that spawned it.
    taskScope: taskScopeOf(parent),
    isSubagent: true,
    spawnSite: 'tool',
    gate: parent.createGate(identity.policy, { runId, lineage }),
    signal: spec.signal,
  };
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

function childRun(spec: ChildRunSpec): RunContext {
  const { services, caller, target: t } = spec;
  const agent = agentOf(services.config, t.target);
  const policy = childPolicy(services, caller, t);
  // Bounded children never have an operator (§8); an independent one with a complete route asks that route only,
  // and its shell calls lose the exemption (approvals.md §7). Each gate is fresh: "Always" covers this run only.
  const routed = t.mode === 'independent' && isCompleteRoute(policy.approvalRoute);
  const asker = routed
    ? services.approvals.askerFor({
        agent: t.target,
        caller: caller.alias,
        runId: spec.runId,
        rootRunId: spec.rootRunId,
        route: policy.approvalRoute,
        routeOnly: true,
        requester: requesterOfSender(caller.sender),
      })
    : null;
  const lineage: RunLineage = {
    kind: spec.background ? 'background' : 'delegate',
    treeRootId: caller.treeRootId,
    parentRunId: caller.runId,
    parentToolCallId: caller.toolCallId,
    mode: t.mode,
    ...(caller.backgroundTaskId ? { taskId: caller.backgroundTaskId } : {}),
  };
  const createGate = (p: SecurityPolicy, run = { runId: spec.runId, lineage }) =>
    createApprovalGate({
      policy: p,
      shellExempt: !routed,
      asker: run.runId === spec.runId ? asker : (asker?.forRun?.(run.runId) ?? asker),
      onDecision: (o) => services.metrics.countApproval(o),
      prompts: promptEvents(services, run),
    });
  return {
    services,
    runId: spec.runId,
    rootRunId: spec.rootRunId,
    lineage,
    agentAlias: t.target,
    sessionKey: caller.sessionKey,
    taskScope: caller.taskScope,
    sender: caller.sender,
    bucketOwner: t.mode === 'bounded' ? caller.bucketOwner : `delegate-run:${spec.runId}`,
    isSubagent: false,
    spawnSite: 'tool',
    policy,
    runtime: runtimeProfileFor(services.config, t.target),
    budgetRootId: spec.budgetRootId,
    memoryAllowlist: [...new Set([...(agent?.workspace.read_memory_from ?? []), t.target])],
    providerRef: agent?.model_provider ?? '',
    origin: undefined,
    gate: createGate(policy),
    createGate,
    signal: spec.signal,
    logger: services.logger,
    delegate: spec.delegate,
    cost: spec.cost,
    observers: spec.observers,
    thinking: childThinking(services, caller, t),
  };
}

function backgroundCallerRun(spec: BackgroundCallerSpec): RunContext {
  const { services } = spec;
  const gate = createApprovalGate({
    policy: spec.policy,
    shellExempt: true,
    asker: null,
    onDecision: (o) => services.metrics.countApproval(o),
  });
  return {
    services,
    runId: spec.taskId,
    rootRunId: spec.taskId,
    lineage: spec.lineage,
    agentAlias: spec.caller,
    sessionKey: spec.sessionKey,
    taskScope: spec.taskScope,
    sender: spec.sender,
    bucketOwner: spec.bucketOwner,
    isSubagent: false,
    spawnSite: 'tool',
    policy: spec.policy,
    runtime: runtimeProfileFor(services.config, spec.caller),
    budgetRootId: null,
    memoryAllowlist: [spec.caller],
    providerRef: agentOf(services.config, spec.caller)?.model_provider ?? '',
    origin: undefined,
    gate,
    createGate: () => gate,
    signal: new AbortController().signal,
    logger: services.logger,
    delegate: spec.capability,
  };
}
