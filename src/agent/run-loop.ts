// The model ↔ tool loop of one agent run, until a final answer or max_tool_iterations.

import { RunAbortedError } from '../core/errors.ts';
import type { TreeBudget } from '../delegation/tree-budget.ts';
import { ProviderChainError, stripThinkBlocks } from '../providers/index.ts';
import type {
  ChatMessage,
  ModelProvider,
  ModelResponse,
  NativeThinking,
  ToolCall,
} from '../providers/types.ts';
import type { RunContext } from '../run-contract/run-context.ts';
import type { ToolResult } from '../run-contract/tool.ts';
import type { ToolRegistry } from '../run-contract/tool-registry.ts';
import { maxIterationsText, modelRequestTimedOut, TREE_BUDGET_EXHAUSTED } from './agent-messages.ts';
import { contextBudget, rootRequestTimeoutSecs } from './context-budget.ts';
import { createDuplicateGuard } from './duplicate-guard.ts';
import { fitToWindow, type WindowInput } from './history-window.ts';
import { outboundRedactor } from './outbound-redact.ts';
import { answerDeltas, emitModelRequest, withToolEvents } from './run-live.ts';
import { dispatchToolCall } from './tool-dispatch.ts';
import { modelVisibleText, truncateToolText } from './tool-result-text.ts';

export interface LoopSettings {
  maxToolIterations: number;
  parallelTools: boolean;
  dedupExempt: readonly string[];
  maxToolResultChars: number | undefined;
  strictToolParsing: boolean;
  modelOverride?: string;
  /** Native thinking sent with every request of the run (thinking/levels.ts). */
  thinking?: NativeThinking;
  /** A root turn's deadline: each attempt without its own `timeout_secs` ends after this (context-budget.ts). */
  requestTimeoutSecs?: number;
}

/** How this run takes part in an execution-tree budget (subagents.md §8). */
export type BudgetRole =
  | { kind: 'none' }
  | { kind: 'root'; budget: TreeBudget; rootRunId: string }
  | { kind: 'child'; budget: TreeBudget; rootRunId: string };

export interface LoopInput {
  run: RunContext;
  /** Resolved per model request, so a model_switch takes effect at the next iteration. */
  provider: () => ModelProvider;
  system: string;
  /** History plus the new user message (last); each request sends what fits the window (history-window.ts). */
  messages: readonly ChatMessage[];
  tools: ToolRegistry;
  settings: LoopSettings;
  budget: BudgetRole;
  /** Called after each model response (progress, cost). */
  onModelResponse?: (res: ModelResponse) => Promise<void> | void;
}

export interface LoopOutput {
  text: string;
  /** The messages this run added after the input, final assistant message included. */
  added: ChatMessage[];
  last: ModelResponse;
}

/** A loop failure whose message is the model-facing error (e.g. max iterations, budget). */
export class AgentLoopError extends Error {
  override readonly name = 'AgentLoopError';
}

export async function runAgentLoop(input: LoopInput): Promise<LoopOutput> {
  const { run, settings, budget } = input;
  const current = input.messages.at(-1);
  if (current === undefined) throw new Error('an agent run needs a message');
  const history = input.messages.slice(0, -1);
  // What this run sent back to the model; differs from `added` only by signed thinking.
  const inTurn: ChatMessage[] = [];
  const added: ChatMessage[] = [];
  const guard = createDuplicateGuard(settings.dedupExempt);
  const push = (m: ChatMessage) => {
    inTurn.push(m);
    added.push(m);
  };

  for (let iteration = 1; iteration <= settings.maxToolIterations; iteration++) {
    if (run.signal.aborted) throw new RunAbortedError();
    let toolFree = false;
    if (budget.kind === 'child' && !(await budget.budget.reserveChild(budget.rootRunId))) {
      run.logger.warn(`Shared iteration budget exhausted at iteration ${iteration}`);
      throw new AgentLoopError(TREE_BUDGET_EXHAUSTED);
    }
    if (budget.kind === 'root') {
      const r = await budget.budget.reserveRoot(budget.rootRunId);
      if (r !== 'normal') {
        run.logger.warn(`Shared iteration budget exhausted at iteration ${iteration}`);
        toolFree = true;
      }
    }

    for (const o of run.observers ?? []) await o.beforeModelRequest?.(run);
    const provider = input.provider();
    run.logger.debug({ iteration, tool_free: toolFree }, 'model request');
    emitModelRequest(run, iteration);
    const tools = toolFree ? [] : input.tools.specs();
    const messages = windowed(run, settings, { system: input.system, tools, history, current, inTurn });
    const startedAt = Date.now();
    const pending = provider.complete(
      {
        system: input.system,
        messages,
        tools,
        strictToolParsing: settings.strictToolParsing,
        // A routed-down request goes to route_down_model's own model, not the run's override.
        ...(settings.modelOverride && !run.routedProviderRef
          ? { modelOverride: settings.modelOverride }
          : {}),
        ...(settings.thinking ? { thinking: settings.thinking } : {}),
        ...(settings.requestTimeoutSecs ? { defaultTimeoutSecs: settings.requestTimeoutSecs } : {}),
        // A child's answer is its parent's tool result: only the answer that goes to the chat streams live.
        ...(run.lineage.parentRunId === null ? { onText: answerDeltas(run, iteration) } : {}),
      },
      run.signal,
    );
    let res: ModelResponse;
    try {
      res = await timedModelRequest(run, provider, startedAt, pending);
    } catch (err) {
      for (const o of run.observers ?? []) await o.modelRequestFailed?.(run).catch(() => {});
      if (settings.requestTimeoutSecs !== undefined && !run.signal.aborted && onlyTimeouts(err)) {
        throw new AgentLoopError(
          modelRequestTimedOut(rootRequestTimeoutSecs(run.services.config, refOf(run))),
        );
      }
      throw err;
    }
    await input.onModelResponse?.(res);
    for (const o of run.observers ?? []) await o.afterModelResponse?.(run, res);
    // Redacted here too, so history (sent again, maybe to another provider) holds no known secret either.
    const redact = outboundRedactor(run.services);
    if (toolFree || res.toolCalls.length === 0) {
      const text = redact(stripThinkBlocks(res.text));
      push({ role: 'assistant', content: text });
      return { text, added, last: res };
    }

    const calls = { role: 'assistant' as const, content: redact(res.text), toolCalls: res.toolCalls };
    push(calls);
    // Signed thinking goes back within this loop only; history keeps the plain message.
    if (res.reasoning) inTurn[inTurn.length - 1] = { ...calls, reasoning: res.reasoning };
    const results = await runToolCalls(input, guard, res.toolCalls);
    // A tool can read a secret (a file, the environment, an error); the model never sees its value.
    res.toolCalls.forEach((call, i) => {
      const text = truncateToolText(redact(modelVisibleText(results[i]!)), settings.maxToolResultChars);
      push({ role: 'tool', toolCallId: call.id, toolName: call.name, content: text });
    });
  }
  throw new AgentLoopError(maxIterationsText(settings.maxToolIterations));
}

/** The provider entry the next request goes to: route_down's, else the model_switch'ed or configured one. */
const refOf = (run: RunContext) => run.routedProviderRef ?? run.providerRef;

/** What one request sends: the run's messages trimmed to the window of the provider in effect. */
function windowed(
  run: RunContext,
  settings: LoopSettings,
  parts: Omit<WindowInput, 'budget'>,
): ChatMessage[] {
  const budget = contextBudget(run.services.config, refOf(run), run.runtime, settings.thinking);
  const out = fitToWindow({ ...parts, budget });
  if (out.droppedMessages > 0 || out.shortenedResults > 0 || !out.fits) {
    const fields = {
      max_tokens: budget.maxTokens,
      estimated_tokens: out.estimatedTokens,
      dropped_messages: out.droppedMessages,
      shortened_results: out.shortenedResults,
    };
    if (out.fits) run.logger.debug(fields, 'history trimmed to the context window');
    else run.logger.warn(fields, 'request is over the context window even after trimming');
  }
  return out.messages;
}

/** Every attempt of the chain ended by the per-attempt deadline: the model never answered. */
function onlyTimeouts(err: unknown): boolean {
  return (
    err instanceof ProviderChainError &&
    err.events.length > 0 &&
    err.events.every((e) => e.failureClass === 'timeout' && e.kind === 'timeout')
  );
}

async function runToolCalls(
  input: LoopInput,
  guard: ReturnType<typeof createDuplicateGuard>,
  calls: readonly ToolCall[],
): Promise<ToolResult[]> {
  const observers = input.run.observers ?? [];
  const one = async (call: ToolCall) => {
    for (const o of observers) o.toolStarted?.(call.name);
    const result = await withToolEvents(input.run, call, () =>
      dispatchToolCall(input.run, input.tools, guard, call),
    );
    for (const o of observers) await o.toolFinished?.(call.name, result.success, input.run);
    return result;
  };
  if (input.settings.parallelTools) {
    // The guard is consulted synchronously in call order before any tool awaits, so "first wins" holds.
    return Promise.all(calls.map(one));
  }
  const out: ToolResult[] = [];
  for (const call of calls) out.push(await one(call));
  return out;
}

/** Records model latency in the fleet metrics; an aborted request is not a model failure and is not recorded. */
async function timedModelRequest(
  run: RunContext,
  provider: ModelProvider,
  startedAt: number,
  pending: Promise<ModelResponse>,
): Promise<ModelResponse> {
  try {
    const res = await pending;
    run.services.metrics.observeModelRequest(Date.now() - startedAt, res.served.providerType, true);
    return res;
  } catch (err) {
    if (!run.signal.aborted) {
      run.services.metrics.observeModelRequest(
        Date.now() - startedAt,
        provider.requested.providerType,
        false,
      );
      run.services.metrics.countError('model_request');
    }
    throw err;
  }
}
