// run_agent_job: one firing of a cron agent job as a top-level run of its owning agent (subagents.md §11).

import { agentDisabledText, runTurn } from '../agent/run-turn.ts';
import type { ApprovalAsker } from '../approval/gate.ts';
import { agentOf, riskProfileFor } from '../config/lookup.ts';
import type { CronJobConfig } from '../config/types.ts';
import { errorChain, errorMessage } from '../core/errors.ts';
import { newRunId } from '../core/ids.ts';
import { type RunScope, withRunScope } from '../core/logger.ts';
import {
  CRON_BUDGET_EXHAUSTED,
  CRON_JOB_EXECUTED,
  CRON_RATE_LIMITED,
  CRON_READ_ONLY,
  cronJobFailed,
  cronPrompt,
  cronSender,
  cronSessionKey,
} from '../cron/cron-messages.ts';
import { turnServices } from '../run-contract/live-services.ts';
import type { RuntimeServices } from '../run-contract/run-context.ts';
import type { ToolSetOptions } from '../run-contract/tool-registry.ts';
import type { TurnFiles } from '../run-contract/turn-files.ts';
import { buildSecurityPolicy } from '../security/policy.ts';
import { noAgentText, noRiskProfileText } from '../security/security-messages.ts';
import type { SecurityPolicy } from '../security/types.ts';
import { spawnFailed, unresolvablePolicy } from '../tools/subagent/subagent-messages.ts';
import { MEMORY_TOOLS, SCHEDULER_MUTATION_TOOLS } from '../tools/tool-set.ts';

const LOGGED_OUTPUT_CHARS = 4000;

export interface AgentJob {
  /** The cron alias (`[cron.<alias>]`) or a tool-created job's id: the `cron_job_id` log field. */
  alias: string;
  config: CronJobConfig;
  /** The agent that lists the job in `cron_jobs` (or created it with cron_add). */
  ownerAgent: string;
}

export interface AgentJobOptions {
  signal: AbortSignal;
  /** Defaults to a fresh UUID v4; each retry of a firing is a new run with a new id. */
  runId?: string;
  /**
   * Who answers approval prompts. A cron run has no originating chat: only its profile's route may answer
   * (approvals.md §5). Until routes exist the gate is non-interactive (null, the default).
   */
  asker?: ApprovalAsker | null;
  /** Where send_file queues files: the job's delivery chat; absent (no delivery) send_file has no chat. */
  files?: TurnFiles;
}

export type AgentJobResult =
  | { ok: true; output: string; runId: string }
  | { ok: false; error: string; runId: string };

/** Step 1 of §11: the owning agent's identity (agent, policy, provider), or the error chain. */
function resolveIdentity(services: RuntimeServices, owner: string): { policy: SecurityPolicy } | string {
  const { config } = services;
  const agent = agentOf(config, owner);
  if (!agent) return noAgentText(owner);
  if (!agent.enabled) return agentDisabledText(owner);
  if (!riskProfileFor(config, owner)) {
    return unresolvablePolicy(owner, noRiskProfileText(owner));
  }
  try {
    const policy = buildSecurityPolicy(config, owner);
    services.createProvider(agent.model_provider, owner);
    return { policy };
  } catch (err) {
    return errorChain(err);
  }
}

/** subagents.md §11 Tools: intersect with allowed_tools, or drop the scheduler mutation tools; memory off. */
export function cronToolOptions(job: CronJobConfig): ToolSetOptions {
  const remove = [
    ...(job.allowed_tools === undefined ? SCHEDULER_MUTATION_TOOLS : []),
    ...(job.uses_memory ? [] : MEMORY_TOOLS),
  ];
  return { ...(job.allowed_tools !== undefined ? { allowlist: job.allowed_tools } : {}), remove };
}

export async function runAgentJob(
  services: RuntimeServices,
  job: AgentJob,
  opts: AgentJobOptions,
): Promise<AgentJobResult> {
  const runId = opts.runId ?? newRunId();
  const owner = job.ownerAgent;
  const scope: RunScope = {
    span: 'subagent',
    category: 'cron',
    agent_alias: owner,
    cron_job_id: job.alias,
    run_id: runId,
    spawn_site: 'cron',
  };
  // The run's config is the one current now: a reload reaches the next fire, not this run.
  return withRunScope(scope, () => runScoped(turnServices(services), job, opts, runId, scope));
}

async function runScoped(
  services: RuntimeServices,
  job: AgentJob,
  opts: AgentJobOptions,
  runId: string,
  scope: RunScope,
): Promise<AgentJobResult> {
  const { logger } = services;
  const owner = job.ownerAgent;
  const refuse = (error: string): AgentJobResult => {
    logger.warn({ error }, 'cron job refused');
    return { ok: false, error, runId };
  };

  const identity = resolveIdentity(services, owner);
  if (typeof identity === 'string') return refuse(spawnFailed(identity));
  const { policy } = identity;
  if (policy.autonomy === 'readonly') return refuse(CRON_READ_ONLY);
  const sender = cronSender(job.alias);
  const limit = policy.maxActionsPerHour;
  if (await services.buckets.isExhausted(owner, sender, limit)) return refuse(CRON_RATE_LIMITED);
  if (!(await services.buckets.tryRecord(owner, sender, limit))) return refuse(CRON_BUDGET_EXHAUSTED);

  const cron = job.config;
  const sessionKey = cron.session_target === 'main' ? 'main' : cronSessionKey(runId);
  logger.info({ session_key: sessionKey }, 'cron job started');
  try {
    const res = await runTurn(services, {
      agentAlias: owner,
      sessionKey,
      sender,
      message: cronPrompt(job.alias, cron.name, cron.prompt),
      // A cron root turn with a route asks the route; without one it is non-interactive (approvals.md §5).
      asker:
        opts.asker ??
        services.approvals.askerFor({
          agent: owner,
          runId,
          rootRunId: runId,
          route: riskProfileFor(services.config, owner)?.approval_route,
        }),
      signal: opts.signal,
      runId,
      spawnSite: 'cron',
      tools: cronToolOptions(cron),
      ...(cron.model ? { modelOverride: cron.model } : {}),
      logScope: scope,
      ...(opts.files ? { files: opts.files } : {}),
    });
    const output = res.text.trim() ? res.text : CRON_JOB_EXECUTED;
    // Without a delivery, the logs are where the output is kept (config.md §14).
    logger.info({ output: output.slice(0, LOGGED_OUTPUT_CHARS) }, 'cron job finished');
    return { ok: true, output, runId };
  } catch (err) {
    const error = cronJobFailed(errorMessage(err));
    logger.warn({ error }, 'cron job failed');
    if (cron.session_target !== 'main') {
      await services.history.clear(owner, sessionKey).catch((e: unknown) => {
        logger.warn({ err: errorMessage(e) }, 'cron session purge failed');
      });
    }
    return { ok: false, error, runId };
  }
}
