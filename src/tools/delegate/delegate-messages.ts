// delegate's fixed protocol literals (delegate.md); the localisable ones come from the Fluent catalog.
import { defaultCatalog } from '../../i18n/catalog.ts';

export const DELEGATE_DESCRIPTION =
  'Delegate a subtask to a specialized agent. Use when: a task benefits from a different model (e.g. fast summarization, deep reasoning, code generation). The sub-agent runs a single prompt by default; with agentic=true it can iterate with a filtered tool-call loop. Supports background execution (returns a task_id immediately), batched background waits (await_sessions), and parallel execution (runs multiple agents concurrently).';

export const NONE_CONFIGURED = '(none configured)';
export const agentParamDescription = (roster: readonly string[]) =>
  `Name of the agent to delegate to. Available: ${roster.length ? roster.join(', ') : NONE_CONFIGURED}`;

// §6.1 dispatch and arguments
export const unknownAction = (v: string) =>
  `Unknown action '${v}'. Use delegate/check_result/list_results/cancel_task/await_sessions.`;
export const MISSING_AGENT = "Missing 'agent' parameter";
export const EMPTY_AGENT = "'agent' parameter must not be empty";
export const MISSING_PROMPT = "Missing 'prompt' parameter";
export const EMPTY_PROMPT = "'prompt' parameter must not be empty";

// §6.2 / §7
export const unknownAgent = (t: string, list: string) => `Unknown agent '${t}'. Available agents: ${list}`;
export const depthLimit = (d: number, c: number) => `Delegation depth limit reached (${d}/${c}).`;

// §5.1
export const delegationForbidden = (caller: string, profile: string) =>
  `delegation is forbidden for caller "${caller}" by risk profile "${profile}" delegation_policy; ${
    profile.trim()
      ? `set [risk_profiles.${profile}].delegation_policy mode = "allow"`
      : 'set the caller risk profile\'s delegation_policy mode = "allow"'
  }`;

// §5.2
export const reach = {
  callerMissing: (t: string, c: string) =>
    `delegate target "${t}" is not reachable because caller "${c}" is not present in the loaded agents config`,
  targetMissing: (t: string, c: string) =>
    `delegate target "${t}" is not reachable from "${c}": no agent with that alias exists in the loaded config`,
  targetDisabled: (t: string, c: string) =>
    `delegate target "${t}" is not reachable from "${c}": the target agent is disabled`,
  differentProfile: (t: string, c: string, cp: string, tp: string) =>
    `delegate target "${t}" is not reachable from "${c}": different risk profile (caller uses "${cp}", target uses "${tp}"). delegate_same_risk_profile only reaches agents with the same risk profile; add an explicit [agents.${c}].delegates entry with the intended mode, or change one agent's risk_profile.`,
  sameProfileOff: (t: string, c: string) =>
    `delegate target "${t}" is not reachable from "${c}": delegate_same_risk_profile is disabled and the target is not listed in [agents.${c}].delegates`,
  other: (t: string, c: string) =>
    `delegate target "${t}" is not reachable from "${c}"; add it to [agents.${c}].delegates or share a risk profile with delegate_same_risk_profile enabled`,
} as const;

// §5.3, §5.4
export const targetPolicyFailed = (t: string, err: string) =>
  `could not resolve security policy for delegate target "${t}": ${err}`;
const ZEROCLAW_DOCS = 'See ZeroClaw docs, "Delegation & SubAgents" > "What\'s not supported".';
export const independentAlwaysAsk = (t: string, c: string, p: string, entries: readonly string[]) =>
  `delegate target "${t}" cannot run in independent mode from "${c}": risk profile "${p}" has always_ask entries (${entries.join(', ')}). ${ZEROCLAW_DOCS}`;
export const boundedAgenticAlwaysAsk = (t: string, c: string, p: string, entries: readonly string[]) =>
  `delegate target "${t}" cannot run in bounded agentic mode from "${c}": risk profile "${p}" has always_ask entries (${entries.join(', ')}). ${ZEROCLAW_DOCS}`;

// §9, §10
export const agentFailed = (t: string, err: string) => `Agent '${t}' failed: ${err}`;
export const timedOut = (t: string, secs: number) => `Agent '${t}' timed out after ${secs}s`;
export const agenticNoRiskProfile = (t: string, rp: string) =>
  `Agent '${t}' is agentic but risk_profile '${rp}' is not configured`;
export const independentToolsFailed = (t: string, err: string) =>
  `Failed to initialize independent delegate tools for target '${t}': ${err}`;
export const independentMemoryFailed = (t: string, err: string) =>
  `Failed to initialize memory for delegate target '${t}': ${err}`;
export const PROVIDER_TOOLS_NO_ANSWER =
  'the model provider ended after provider-executed tools without a final response.';
export const successHeader = (t: string, providerType: string, model: string, agentic: boolean) =>
  `[Agent '${t}' (${providerType}/${model}${agentic ? ', agentic' : ''})]`;
export const delegateOnlyRefusal = (action: string) =>
  `Action '${action}' is not available in a delegated run; only action='delegate' is allowed. Return the task_id to your caller instead.`;

// §10.3 catalog entries (English source in src/i18n/locales/en/delegate.ftl)
export const invalidSemanticCompletion = (t: string) =>
  defaultCatalog().format('cli-delegate-error-invalid-semantic-completion', { agent_name: t });
export const fallbackWarning = () => defaultCatalog().format('delegate-provider-fallback-warning');
export const fallbackHeader = (
  t: string,
  requested: { provider: string; model: string },
  served: { provider: string; model: string },
  agentic: boolean,
) =>
  defaultCatalog().format(
    agentic ? 'delegate-provider-fallback-header-agentic' : 'delegate-provider-fallback-header',
    {
      agent_name: t,
      requested_provider: requested.provider,
      requested_model: requested.model,
      actual_provider: served.provider,
      actual_model: served.model,
    },
  );
export const strictMixedError = () => defaultCatalog().format('turn-tool-protocol-strict-mixed-error');

// §11 background
export const TOO_MANY_IN_FLIGHT =
  'Too many background delegations in flight (limit 128). Wait for some to finish (check_result) or cancel one (cancel_task) before starting more.';
export const backgroundStarted = (t: string, id: string) =>
  `Background task started for agent '${t}'.\ntask_id: ${id}\nUse action='check_result' with task_id='${id}' to retrieve the result.`;
export const WORKER_SHUTDOWN = 'Cancelled: worker shutting down';
export const CANCELLED_BY_USER = 'Cancelled by user request';
export const UNKNOWN_ERROR = 'Unknown error';
export const REAPER_NOTE =
  'the owning daemon exited or the task exceeded its max runtime; reconciled by the supervision reaper';
export const BACKGROUND_UNAVAILABLE =
  'background delegation is not available in this process: no delegate queue is connected';

// §12 management
export const invalidTaskId = (id: string) => `Invalid task_id '${id}': must be a valid UUID`;
export const MISSING_TASK_ID_CHECK = "Missing 'task_id' parameter for check_result";
export const MISSING_TASK_ID_CANCEL = "Missing 'task_id' parameter for cancel_task";
export const noResultFound = (id: string) => `No result found for task_id '${id}'`;
export const noTaskFound = (id: string) => `No task found for task_id '${id}'`;
export const notRunning = (id: string, status: string) => `Task '${id}' is not running (status: ${status})`;
export const cancelledRunning = (id: string) => `Task '${id}' cancelled: the running task was aborted.`;
export const cancelledSettled = (id: string) => `Task '${id}' marked cancelled (it had already settled).`;
export const terminalWithoutResult = (status: string) => `background task is ${status} and will not complete`;
export const NO_BACKGROUND_RESULTS = 'No background delegate results found.';
export const awaitText = {
  missing: "Missing 'task_ids' parameter for await_sessions",
  tooMany: "'task_ids' must contain no more than 128 task ids",
  nonString: "'task_ids' must contain only strings",
  duplicate: (id: string) => `Duplicate task_id '${id}' in task_ids`,
  empty: "'task_ids' must contain at least one task id",
  notInteger: "'timeout_ms' must be an integer",
  tooLong: "'timeout_ms' must be no more than 120000",
  pending: 'one or more background tasks are still pending or missing',
  failed: 'one or more background tasks failed or were cancelled',
} as const;

// §13 parallel
export const MISSING_PROMPT_PARALLEL = "Missing 'prompt' parameter for parallel execution";
export const EMPTY_PARALLEL = "'parallel' array must contain at least one agent name";
export const unknownParallelAgent = (n: string, list: string) =>
  `Unknown agent '${n}' in parallel list. Available: ${list}`;
export const parallelHeader = (n: number) => `[Parallel delegation: ${n} agents]`;
export const parallelBlockHeader = (agent: string, success: boolean) =>
  `--- ${agent} (success=${success}) ---`;
export const PARALLEL_FAILED = 'One or more parallel agents failed';

// §15 cost refusals: costRefusal in src/cost/cost-messages.ts (the cost checks produce them)

// §17 refusal log messages
export const refusalLog = {
  policy: 'delegate refused: caller delegation_policy forbids delegation',
  reach: "delegate refused: target not in caller's reachable set",
  targetPolicy: "delegate: could not resolve target's security policy",
  independentAlwaysAsk: 'delegate refused: independent target has always_ask entries',
  boundedAlwaysAsk: 'delegate refused: bounded agentic target has always_ask entries',
} as const;
