// Runs one admitted delegation: provider, cost ceilings, then one-shot or agentic execution (delegate.md §9, §10).

import { TREE_BUDGET_EXHAUSTED } from '../../agent/agent-messages.ts';
import type { ExecuteRun } from '../../agent/execute-run.ts';
import { childPolicy, childThinking, createRunContext } from '../../agent/run-context-factory.ts';
import { emitModelRequest, withRunEvents } from '../../agent/run-live.ts';
import type { BudgetRole } from '../../agent/run-loop.ts';
import { buildSystemPrompt } from '../../agent/system-prompt.ts';
import { thinkingEffects, withThinkingPrefix } from '../../agent/thinking/levels.ts';
import { agentOf, hasEntry, runtimeProfileFor } from '../../config/lookup.ts';
import { errorMessage, RunAbortedError } from '../../core/errors.ts';
import { newRunId } from '../../core/ids.ts';
import { withRunScope } from '../../core/logger.ts';
import { checkCostCeilings, createCostObserver, hopCostScope } from '../../cost/cost-scope.ts';
import { StrictMixedChainError, stripThinkBlocks } from '../../providers/index.ts';
import type { ModelProvider, ModelResponse } from '../../providers/types.ts';
import type { CostScope } from '../../run-contract/cost-contract.ts';
import type { DelegateCapability } from '../../run-contract/delegate-capability.ts';
import type { AdmittedTarget, CallerView } from '../../run-contract/delegation-view.ts';
import type { RunContext, RunObserver, RuntimeServices } from '../../run-contract/run-context.ts';
import { fail, ok, type Tool, type ToolResult } from '../../run-contract/tool.ts';
import type { ToolRegistry } from '../../run-contract/tool-registry.ts';
import type { SecurityPolicy } from '../../security/types.ts';
import { grantedCapability } from './capability.ts';
import { boundedChildTools, isGrantedSubDelegation } from './child-tools.ts';
import {
  agentFailed,
  agenticNoRiskProfile,
  fallbackHeader,
  fallbackWarning,
  independentToolsFailed,
  invalidSemanticCompletion,
  strictMixedError,
  successHeader,
  timedOut,
} from './delegate-messages.ts';

export interface ExecuteDeps {
  buildToolSet(run: RunContext, opts?: { remove?: readonly string[] }): ToolRegistry;
  executeRun: ExecuteRun;
  /** A target-bound, delegate-only instance (§9.4) whose caller tools are the child's own set. */
  /** The delegate tool of a granted child; its roster is the child's (`policy`: the child's own). */
  createGrant(capability: DelegateCapability, childTools: () => ToolRegistry, policy: SecurityPolicy): Tool;
}

export interface ExecuteInput {
  services: RuntimeServices;
  caller: CallerView;
  target: AdmittedTarget;
  /** The composed prompt (§9.1). */
  prompt: string;
  /** Cancellation the child is bound to (the turn's, or the background job's). */
  signal: AbortSignal;
  /** Background jobs start a new execution-tree root even for bounded targets (§14). */
  newRoot: boolean;
  observers?: readonly RunObserver[];
  logScope?: Record<string, string>;
  deps: ExecuteDeps;
}

/** `[delegate]` defaults apply when the target's runtime profile has no time limit of its own. */
export function timeLimitSecs(services: RuntimeServices, target: string, agentic: boolean): number {
  const rp = runtimeProfileFor(services.config, target);
  return agentic
    ? (rp.agentic_timeout_secs ?? services.config.delegate.agentic_timeout_secs)
    : (rp.delegation_timeout_secs ?? services.config.delegate.timeout_secs);
}

export function composePrompt(prompt: string, context: unknown): string {
  const ctx = typeof context === 'string' ? context.trim() : '';
  return ctx ? `[Context]\n${ctx}\n\n[Task]\n${prompt.trim()}` : prompt.trim();
}

function successOutput(t: string, res: ModelResponse, text: string, agentic: boolean): string {
  if (!res.fallbackUsed) {
    return `${successHeader(t, res.requested.providerType, res.requested.model, agentic)}\n${text}`;
  }
  const header = fallbackHeader(t, res.requested, res.served, agentic);
  return `${header}\n${text}\n\n${fallbackWarning()}`;
}

/**
 * Provider chains per services and target: a chain holds no per-request state, and building one per child
 * made a 16-way fan-out pay sixteen SDK set-ups before its first request.
 */
const providerCache = new WeakMap<RuntimeServices, Map<string, ModelProvider>>();

function targetProvider(services: RuntimeServices, target: string): ModelProvider {
  const ref = agentOf(services.config, target)?.model_provider ?? '';
  let byKey = providerCache.get(services);
  if (!byKey) {
    byKey = new Map();
    providerCache.set(services, byKey);
  }
  const key = `${target}\u0000${ref}`;
  let provider = byKey.get(key);
  if (!provider) {
    provider = services.createProvider(ref, target);
    byKey.set(key, provider);
  }
  return provider;
}

export async function executeDelegation(input: ExecuteInput): Promise<ToolResult> {
  const { services, target: t } = input;
  const agentic = t.agentic;
  const rp = agentOf(services.config, t.target)?.risk_profile.trim() ?? '';
  if (agentic && !hasEntry(services.config.risk_profiles, rp)) {
    return fail(agenticNoRiskProfile(t.target, rp));
  }
  let provider: ModelProvider;
  try {
    provider = targetProvider(services, t.target);
  } catch (err) {
    return fail(errorMessage(err));
  }
  const cost = hopCostScope(input.caller.cost, t.target, t.mode);
  if (agentic) {
    const refusal = await checkCostCeilings(services, cost);
    if (refusal) return fail(agentFailed(t.target, refusal));
  }
  const secs = timeLimitSecs(services, t.target, agentic);
  const timer = new AbortController();
  const handle = setTimeout(() => timer.abort(new RunAbortedError('timeout')), secs * 1000);
  const signal = AbortSignal.any([input.signal, timer.signal]);
  const runId = newRunId();
  const scope = {
    agent_alias: t.target,
    parent_agent_alias: input.caller.alias,
    session_key: input.caller.sessionKey,
    run_id: runId,
    delegate_mode: t.mode,
    channel: 'delegate',
    ...input.logScope,
  };
  try {
    return await withRunScope(scope, () =>
      agentic ? runAgentic(input, runId, signal, cost) : runOneShot(input, provider, runId, signal),
    );
  } catch (err) {
    if (timer.signal.aborted && !input.signal.aborted) return fail(timedOut(t.target, secs));
    if (input.signal.aborted) throw err instanceof RunAbortedError ? err : new RunAbortedError();
    if (err instanceof StrictMixedChainError) return fail(agentFailed(t.target, strictMixedError()));
    return fail(agentFailed(t.target, errorMessage(err)));
  } finally {
    clearTimeout(handle);
  }
}

/** §14: shared caller tree, or a new root sized from the target's profile (none when it omits the key). */
async function budgetFor(
  input: ExecuteInput,
  runId: string,
): Promise<{ role: BudgetRole; rootId: string | null }> {
  const { services, caller, target: t } = input;
  if (t.mode === 'bounded' && !input.newRoot) {
    const rootId = caller.budgetRootId;
    return rootId
      ? { role: { kind: 'child', budget: services.treeBudget, rootRunId: rootId }, rootId }
      : { role: { kind: 'none' }, rootId: null };
  }
  const size = runtimeProfileFor(services.config, t.target).max_execution_tree_iterations;
  if (size === undefined) return { role: { kind: 'none' }, rootId: null };
  await services.treeBudget.create(runId, size);
  return { role: { kind: 'root', budget: services.treeBudget, rootRunId: runId }, rootId: runId };
}

async function runOneShot(
  input: ExecuteInput,
  provider: ModelProvider,
  runId: string,
  signal: AbortSignal,
): Promise<ToolResult> {
  const { services, caller, target: t } = input;
  const { role } = await budgetFor(input, runId);
  // A one-shot bounded target uses one slot for its single request (subagents.md §8).
  if (role.kind === 'child' && !(await role.budget.reserveChild(role.rootRunId))) {
    services.logger.warn('Shared iteration budget exhausted at iteration 1');
    return fail(agentFailed(t.target, TREE_BUDGET_EXHAUSTED));
  }
  if (role.kind === 'root') await role.budget.reserveRoot(role.rootRunId);
  const thinking = thinkingEffects(childThinking(services, caller, t), services.logger);
  const prompt = await buildSystemPrompt({
    agentAlias: t.target,
    tools: [],
    listTools: false,
    workspaceDir: childPolicy(services, caller, t).workspaceDir,
  });
  const system = withThinkingPrefix(prompt, thinking);
  const fakeRun = createRunContext({
    kind: 'child',
    background: input.newRoot,
    services,
    caller,
    target: t,
    runId,
    rootRunId: runId,
    budgetRootId: null,
    signal,
    delegate: null,
    cost: hopCostScope(caller.cost, t.target, t.mode),
    observers: input.observers ?? [],
  });
  // One-shot targets are neither priced nor budget-checked (§15); progress observers still count the request.
  for (const o of input.observers ?? []) await o.beforeModelRequest?.(fakeRun);
  const res = await withRunEvents(fakeRun, () => {
    emitModelRequest(fakeRun, 1);
    return provider.complete(
      {
        system,
        messages: [{ role: 'user', content: input.prompt }],
        tools: [],
        strictToolParsing: runtimeProfileFor(services.config, t.target).strict_tool_parsing,
        ...(thinking.native ? { thinking: thinking.native } : {}),
      },
      signal,
    );
  });
  const text = stripThinkBlocks(res.text);
  if (!text.trim()) return fail(invalidSemanticCompletion(t.target));
  return ok(successOutput(t.target, res, text, false));
}

async function runAgentic(
  input: ExecuteInput,
  runId: string,
  signal: AbortSignal,
  cost: CostScope,
): Promise<ToolResult> {
  const { services, caller, target: t, deps } = input;
  const { role, rootId } = await budgetFor(input, runId);
  const observers = [createCostObserver(cost, true), ...(input.observers ?? [])];
  // A bounded child may delegate further only under a grant (§9.4), decided before its context is made.
  const callerTools = t.mode === 'bounded' ? caller.tools() : null;
  const policy = childPolicy(services, caller, t);
  const delegate =
    callerTools && isGrantedSubDelegation(policy, callerTools)
      ? grantedCapability(services.config, caller.capability, t.target)
      : null;
  const child = createRunContext({
    kind: 'child',
    background: input.newRoot,
    services,
    caller,
    target: t,
    runId,
    rootRunId: rootId ?? (t.mode === 'bounded' ? caller.rootRunId : runId),
    budgetRootId: rootId,
    signal,
    delegate,
    cost,
    observers,
  });
  let tools: ToolRegistry;
  if (callerTools) {
    let childTools: ToolRegistry | undefined;
    const grant = delegate ? deps.createGrant(delegate, () => childTools!, child.policy) : null;
    childTools = boundedChildTools({
      callerTools,
      callerPolicy: caller.policy,
      targetPolicy: child.policy,
      grant,
    });
    tools = childTools;
  } else {
    try {
      tools = deps.buildToolSet(child, { remove: ['model_switch', 'delegate'] });
    } catch (err) {
      return fail(independentToolsFailed(t.target, errorMessage(err)));
    }
  }
  const out = await deps.executeRun({ run: child, tools, history: [], prompt: input.prompt, budget: role });
  const text = stripThinkBlocks(out.text);
  if (!text.trim()) return fail(invalidSemanticCompletion(t.target));
  return ok(successOutput(t.target, out.last, text, true));
}
