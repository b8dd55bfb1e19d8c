// A top-level turn: one inbound message (channel, API, one-shot CLI) to one agent, as an execution-tree root.

import type { ApprovalAsker } from '../approval/gate.ts';
import type { Recipient } from '../channel-host/types.ts';
import { agentOf, runtimeProfileFor } from '../config/lookup.ts';
import { newRunId } from '../core/ids.ts';
import { type RunScope, withRunScope } from '../core/logger.ts';
import { rootCostScope } from '../cost/cost-scope.ts';
import type { ChatMessage, ImageInput } from '../providers/types.ts';
import { createPendingWrites } from '../run-contract/pending-writes.ts';
import type { RuntimeServices } from '../run-contract/run-context.ts';
import type { ToolSetOptions } from '../run-contract/tool-registry.ts';
import type { TurnFiles } from '../run-contract/turn-files.ts';
import { noAgentText } from '../security/security-messages.ts';
import { sessionProviderRef } from '../session/session-model.ts';
import { historyMessageLimit } from './context-budget.ts';
import { executeRun } from './execute-run.ts';
import { createRunContext } from './run-context-factory.ts';
import type { BudgetRole } from './run-loop.ts';

export interface TurnRequest {
  agentAlias: string;
  sessionKey: string;
  /** Identity whose action bucket the turn charges (delegate.md §8.2). */
  sender: string;
  message: string;
  /** Images sent with the message (media.md §1): shown to a model with vision, never stored in history. */
  images?: readonly ImageInput[];
  /** Idempotency key for history writes; a redelivered turn is recorded once. Defaults to the run id. */
  turnId?: string;
  /** The chat the message came from (channel turns). */
  origin?: Recipient;
  /** Who answers approval prompts; null makes the gate non-interactive. */
  asker: ApprovalAsker | null;
  signal: AbortSignal;
  /** The run id to use (cron picks it first: its session key is `cron-<run_id>`). Defaults to a fresh UUID. */
  runId?: string;
  /** Root runs started by the scheduler are `cron`; everything else is `root`. */
  spawnSite?: 'root' | 'cron';
  /** The spawn site's tool-set filters (cron `allowed_tools`, scheduler/memory tool removal). */
  tools?: ToolSetOptions;
  /** Replaces the provider's model id for this run (cron `model`). */
  modelOverride?: string;
  /** Extra fields on every log line of the run (cron: span, category, cron_job_id, spawn_site). */
  logScope?: RunScope;
  /**
   * The caller writes the history itself (the turn worker commits it with the reply in one step):
   * the messages come back in `TurnResult.history` instead of being appended here.
   */
  deferHistory?: boolean;
  /** The session's reads, already under way (the turn worker starts them with its inbox read). */
  session?: Promise<TurnSession>;
  /** Where send_file queues files (media.md §2); absent: send_file has no chat to send to. */
  files?: TurnFiles;
}

/** What a turn reads of its session before it starts: the model_switch override and the history. */
export interface TurnSession {
  switchedModel: string | null;
  history: ChatMessage[];
}

/** Both reads leave in one round trip (the command client writes a tick's commands together). */
export async function readTurnSession(
  services: RuntimeServices,
  agentAlias: string,
  sessionKey: string,
): Promise<TurnSession> {
  // Reads as many messages as the window could send (max_history_messages); the window trims the rest.
  const limit = historyMessageLimit(runtimeProfileFor(services.config, agentAlias));
  const [switchedModel, history] = await Promise.all([
    services.sessionModels.get(agentAlias, sessionKey),
    limit === 0 ? [] : services.history.load(agentAlias, sessionKey, limit),
  ]);
  return { switchedModel, history };
}

export interface TurnResult {
  runId: string;
  text: string;
  /** With `deferHistory`: the messages this turn adds to the session history, under `turnId`. */
  history?: { turnId: string; messages: ChatMessage[] };
  /** With `deferHistory`: resolves once the turn's remaining writes (its last cost record) have landed. */
  landed?: Promise<void>;
}

export const agentDisabledText = (alias: string) => `agent "${alias}" is disabled`;

export async function runTurn(services: RuntimeServices, req: TurnRequest): Promise<TurnResult> {
  const startedAt = Date.now();
  const { config } = services;
  const agent = agentOf(config, req.agentAlias);
  if (!agent) throw new Error(noAgentText(req.agentAlias));
  if (!agent.enabled) throw new Error(agentDisabledText(req.agentAlias));

  const runtime = runtimeProfileFor(config, agent.alias);
  const runId = req.runId ?? newRunId();
  const budgetSize = runtime.max_execution_tree_iterations;
  if (budgetSize !== undefined) await services.treeBudget.create(runId, budgetSize);
  const budget: BudgetRole =
    budgetSize !== undefined
      ? { kind: 'root', budget: services.treeBudget, rootRunId: runId }
      : { kind: 'none' };
  const { switchedModel, history } = await (req.session ??
    readTurnSession(services, agent.alias, req.sessionKey));
  const run = createRunContext({
    kind: req.spawnSite ?? 'root',
    services,
    agentAlias: agent.alias,
    runId,
    sessionKey: req.sessionKey,
    sender: req.sender,
    origin: req.origin,
    ...(req.files ? { files: req.files } : {}),
    asker: req.asker,
    signal: req.signal,
    providerRef: sessionProviderRef(config, switchedModel, agent.model_provider, services.logger, {
      agent_alias: agent.alias,
      session_key: req.sessionKey,
    }),
    budgetRootId: budgetSize !== undefined ? runId : null,
    cost: rootCostScope(config, agent.alias),
  });
  // The caller that commits the history itself joins the turn's last writes with that commit.
  const writes = createPendingWrites(services.logger);
  run.writes = writes;

  const scope = { agent_alias: agent.alias, session_key: req.sessionKey, run_id: runId, ...req.logScope };
  const turn = withRunScope(scope, async () => {
    const out = await executeRun({
      run,
      tools: services.buildToolSet(run, req.tools),
      history,
      prompt: req.message,
      ...(req.images?.length ? { images: req.images } : {}),
      budget,
      ...(req.modelOverride ? { modelOverride: req.modelOverride } : {}),
    });
    const added: ChatMessage[] = [{ role: 'user', content: req.message }, ...out.added];
    const turnId = req.turnId ?? runId;
    if (req.deferHistory)
      return { runId, text: out.text, history: { turnId, messages: added }, landed: writes.landed() };
    await Promise.all([services.history.append(agent.alias, req.sessionKey, turnId, added), writes.landed()]);
    return { runId, text: out.text };
  });
  return timedTurn(services, req.signal, startedAt, turn).catch(async (err: unknown) => {
    await writes.landed();
    throw err;
  });
}

/** Records turn latency and outcome in the fleet metrics. */
async function timedTurn(
  services: RuntimeServices,
  signal: AbortSignal,
  startedAt: number,
  turn: Promise<TurnResult>,
): Promise<TurnResult> {
  try {
    const result = await turn;
    services.metrics.observeTurn(Date.now() - startedAt, 'ok');
    return result;
  } catch (err) {
    services.metrics.observeTurn(Date.now() - startedAt, signal.aborted ? 'aborted' : 'error');
    if (!signal.aborted) services.metrics.countError('turn');
    throw err;
  }
}
