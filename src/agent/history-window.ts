// Chooses what of a conversation goes into one model request so it fits the model's context window.
//
// Pure: the stored history is never changed; shortened messages are new objects.
// Token estimate: ceil(chars / 3) per text (a little above the usual ~4 chars per token of English, so
// code and non-English text stay inside the window too), plus 4 tokens of framing per message and per
// tool call. The tool list counts as its JSON. It is an estimate: the answer reserve (context-budget.ts)
// is the margin for its error.
import type { ChatMessage, ToolSpec } from '../providers/types.ts';
import { shortenedToolResult } from './agent-messages.ts';

export const CHARS_PER_TOKEN = 3;
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** What an old tool result keeps when it is shortened (code points). */
export const SHORTENED_HEAD_CHARS = 300;

export interface WindowBudget {
  /** Estimated tokens the whole request may use: system prompt, tool list and messages. */
  maxTokens: number;
  /** How many earlier messages (before the current user message) may be sent. */
  maxHistoryMessages: number;
}

export interface WindowInput {
  system: string;
  tools: readonly ToolSpec[];
  /** Earlier turns, oldest first, as stored. */
  history: readonly ChatMessage[];
  /** The current user message: always sent. */
  current: ChatMessage;
  /** What this run added so far (its tool calls and results); never dropped, its pairs stay whole. */
  inTurn?: readonly ChatMessage[];
  budget: WindowBudget;
}

export interface WindowResult {
  /** Earlier messages that fit, the current message, then the in-turn messages. */
  messages: ChatMessage[];
  estimatedTokens: number;
  /** Earlier messages left out (whole turns, or unpaired calls/results). */
  droppedMessages: number;
  shortenedResults: number;
  /** False when even the kept minimum (system, current message, this run's messages) is over budget. */
  fits: boolean;
}

/** The tokens one image part is counted as (an estimate on the high side, as the character estimate is). */
export const IMAGE_TOKENS = 1600;

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export function estimateMessageTokens(m: ChatMessage): number {
  let chars = m.content.length;
  let overhead = MESSAGE_OVERHEAD_TOKENS;
  if (m.role === 'tool') chars += m.toolName.length + m.toolCallId.length;
  // An image costs what providers bill for a large one (OpenAI high detail, Anthropic ~1,600): counted, so the
  // window leaves it room instead of learning of it from a context-length error.
  if (m.role === 'user') overhead += (m.images?.length ?? 0) * IMAGE_TOKENS;
  if (m.role === 'assistant') {
    for (const c of m.toolCalls ?? []) {
      chars += c.id.length + c.name.length + (JSON.stringify(c.arguments) ?? '').length;
      overhead += MESSAGE_OVERHEAD_TOKENS;
    }
    for (const r of m.reasoning ?? []) chars += r.text.length;
  }
  return overhead + Math.ceil(chars / CHARS_PER_TOKEN);
}

// A tool's spec parts are the same objects for the life of the process, and serialising them on every
// model request was a measurable share of a turn: each spec's JSON length is kept per schema object.
const specCache = new WeakMap<object, { name: string; description: string; chars: number }>();

function specChars(spec: ToolSpec): number {
  const hit = specCache.get(spec.parameters);
  if (hit && hit.name === spec.name && hit.description === spec.description) return hit.chars;
  const chars = JSON.stringify(spec).length;
  specCache.set(spec.parameters, { name: spec.name, description: spec.description, chars });
  return chars;
}

/** The length of JSON.stringify(tools), without serialising the schemas again. */
function toolListChars(tools: readonly ToolSpec[]): number {
  if (tools.length === 0) return 0;
  let chars = 1 + tools.length; // brackets and commas
  for (const t of tools) chars += specChars(t);
  return chars;
}

export function estimateFixedTokens(system: string, tools: readonly ToolSpec[]): number {
  const toolChars = toolListChars(tools);
  return MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(system) + Math.ceil(toolChars / CHARS_PER_TOKEN);
}

/** A tool result cut to its head and a marker, or null when cutting would not make it shorter. */
export function shortenToolResult(m: Extract<ChatMessage, { role: 'tool' }>): ChatMessage | null {
  if (m.content.length <= SHORTENED_HEAD_CHARS * 2) return null;
  const chars = [...m.content];
  if (chars.length <= SHORTENED_HEAD_CHARS * 2) return null;
  const head = chars.slice(0, SHORTENED_HEAD_CHARS).join('');
  return { ...m, content: shortenedToolResult(head, chars.length - SHORTENED_HEAD_CHARS) };
}

/**
 * Splits history into turns (each starts at a user message) and keeps only complete tool pairs:
 * a call without its result and a result without its call are both left out.
 */
export function historyTurns(history: readonly ChatMessage[]): ChatMessage[][] {
  const turns: ChatMessage[][] = [];
  for (const m of history) {
    if (m.role === 'user') turns.push([m]);
    else turns.at(-1)?.push(m); // messages before the first user message have no turn: left out
  }
  return turns.map(pairedOnly);
}

function pairedOnly(turn: readonly ChatMessage[]): ChatMessage[] {
  // Most turns hold no tool call at all: every message is kept as is.
  if (!turn.some((m) => m.role === 'tool' || (m.role === 'assistant' && m.toolCalls?.length)))
    return [...turn];
  const called = new Set<string>();
  const answered = new Set<string>();
  for (const m of turn) {
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) called.add(c.id);
    // A result counts only after its call, and once.
    if (m.role === 'tool' && called.has(m.toolCallId)) answered.add(m.toolCallId);
  }
  const out: ChatMessage[] = [];
  const sent = new Set<string>();
  for (const m of turn) {
    if (m.role === 'tool') {
      if (answered.has(m.toolCallId) && !sent.has(m.toolCallId)) {
        sent.add(m.toolCallId);
        out.push(m);
      }
      continue;
    }
    if (m.role !== 'assistant' || m.toolCalls === undefined) {
      out.push(m);
      continue;
    }
    const calls = m.toolCalls.filter((c) => answered.has(c.id));
    if (calls.length === m.toolCalls.length) out.push(m);
    else if (calls.length > 0) out.push({ ...m, toolCalls: calls });
    else if (m.content !== '') out.push({ role: 'assistant', content: m.content });
  }
  return out;
}

const sum = (ms: readonly ChatMessage[]) => ms.reduce((n, m) => n + estimateMessageTokens(m), 0);

/**
 * Order of sacrifice: turns beyond the message cap (oldest first); then old tool results are shortened
 * (oldest first); then the oldest turns are dropped; last, this run's earlier tool results are
 * shortened (the latest batch, which the model has not seen yet, stays whole).
 */
export function fitToWindow(input: WindowInput): WindowResult {
  const { budget } = input;
  const inTurn = [...(input.inTurn ?? [])];
  const turns = historyTurns(input.history);
  const offered = input.history.length;
  let shortened = 0;

  let count = turns.reduce((n, t) => n + t.length, 0);
  while (turns.length > 0 && count > budget.maxHistoryMessages) count -= turns.shift()?.length ?? 0;

  const fixed = estimateFixedTokens(input.system, input.tools) + estimateMessageTokens(input.current);
  let total = fixed + sum(inTurn) + turns.reduce((n, t) => n + sum(t), 0);
  const over = () => total > budget.maxTokens;

  const shortenIn = (list: ChatMessage[], end: number) => {
    for (let i = 0; i < end && over(); i++) {
      const m = list[i];
      if (m?.role !== 'tool') continue;
      const cut = shortenToolResult(m);
      if (cut === null) continue;
      total += estimateMessageTokens(cut) - estimateMessageTokens(m);
      list[i] = cut;
      shortened++;
    }
  };

  for (const turn of turns) shortenIn(turn, turn.length);
  while (over() && turns.length > 0) total -= sum(turns.shift() ?? []);
  const lastCalls = inTurn.findLastIndex((m) => m.role === 'assistant');
  // The results after the last call batch are new to the model: they stay whole.
  shortenIn(inTurn, Math.max(lastCalls, 0));

  const kept = turns.flat();
  return {
    messages: [...kept, input.current, ...inTurn],
    estimatedTokens: total,
    droppedMessages: offered - kept.length,
    shortenedResults: shortened,
    fits: !over(),
  };
}
