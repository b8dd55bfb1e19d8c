// Transcript view model (delegate.md §18): stored history entries → messages and tool cards. Pure: no I/O, no HTML.
// Foreground delegate / spawn_subagent calls get delegation cards; everything else a generic tool card. Nothing
// here reads a lifecycle from text: a card shows the stored result or says it was not recorded.
import { chatMessageSchema } from '../../session/history-entry.ts';
import { type EnvelopeDetails, parseParallelBlocks, parseSyncEnvelope } from './envelope.ts';
import { CARD_ARGS_MAX_BYTES, type Field, limitField } from './limits.ts';

export interface StoredEntry {
  /** Position in the history list (0 = oldest kept entry). */
  index: number;
  raw: string;
}

export type ShownText =
  | { kind: 'text'; text: Field }
  | { kind: 'envelope'; response: Field; details: EnvelopeDetails };

export type ResponseView =
  | { kind: 'missing' }
  | ShownText
  | { kind: 'parallel'; blocks: { agent: string; view: ShownText }[] };

/** Why a call gets a generic card. */
export type GenericReason = 'tool' | 'malformed' | 'oversized' | 'background' | 'management';

export interface GenericCard {
  kind: 'generic';
  reason: GenericReason;
  callId: string;
  toolName: string;
  input: Field;
  /** The stored arguments, uncut (what Copy copies). */
  original: string;
  result: { kind: 'missing' } | { kind: 'text'; text: Field };
}

export interface DelegationCard {
  kind: 'delegation';
  tool: 'delegate' | 'spawn_subagent';
  callId: string;
  /** Header names: `agent`, or the `parallel` names; none for spawn_subagent. */
  targets: string[];
  parallel: boolean;
  task: Field;
  /** The other arguments (everything but the prompt), or null when there are none. */
  input: Field | null;
  original: string;
  response: ResponseView;
}

export type ToolCard = GenericCard | DelegationCard;

export type TranscriptItem =
  | { kind: 'user' | 'assistant'; index: number; text: Field }
  | { kind: 'card'; index: number; card: ToolCard }
  /** A tool result whose call is not on this page (or was not stored). */
  | { kind: 'result'; index: number; toolName: string; callId: string; text: Field }
  | { kind: 'unreadable'; index: number };

type Message = ReturnType<typeof chatMessageSchema.parse>;
type ToolCall = { id: string; name: string; arguments?: unknown };

function parseEntry(raw: string): Message | null {
  try {
    const r = chatMessageSchema.safeParse(JSON.parse(raw));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The stored arguments as text: a string when the model's JSON did not parse, else their JSON. */
function originalOf(args: unknown): string {
  if (typeof args === 'string') return args;
  return JSON.stringify(args) ?? '';
}

function inputField(args: unknown): Field {
  return limitField(typeof args === 'string' ? args : (JSON.stringify(args, null, 2) ?? ''));
}

type Classified =
  | { kind: 'generic'; reason: GenericReason }
  | {
      kind: 'delegation';
      targets: string[];
      parallel: boolean;
      prompt: string;
      other: Record<string, unknown>;
    };

const nonBlank = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** Which card a call gets (§18: generic for malformed or oversized arguments, background launches, management). */
export function classifyCall(name: string, args: unknown): Classified {
  if (name !== 'delegate' && name !== 'spawn_subagent') return { kind: 'generic', reason: 'tool' };
  if (Buffer.byteLength(originalOf(args), 'utf8') > CARD_ARGS_MAX_BYTES)
    return { kind: 'generic', reason: 'oversized' };
  if (!isObject(args)) return { kind: 'generic', reason: 'malformed' };
  const { prompt, ...other } = args;
  const malformed = { kind: 'generic', reason: 'malformed' } as const;
  if (name === 'spawn_subagent') {
    if (!nonBlank(prompt)) return malformed;
    return { kind: 'delegation', targets: [], parallel: false, prompt, other };
  }
  const action = args.action ?? 'delegate';
  if (typeof action !== 'string') return malformed;
  if (action !== 'delegate') return { kind: 'generic', reason: 'management' };
  if (args.background !== undefined && typeof args.background !== 'boolean') return malformed;
  if (args.background === true) return { kind: 'generic', reason: 'background' };
  if (!nonBlank(prompt)) return malformed;
  if (args.context !== undefined && typeof args.context !== 'string') return malformed;
  if (args.parallel !== undefined) {
    if (!Array.isArray(args.parallel)) return malformed;
    // As the tool reads them (§13): trimmed, blank and non-string entries dropped, repeats kept.
    const targets = args.parallel.filter(nonBlank).map((n) => n.trim());
    return { kind: 'delegation', targets, parallel: true, prompt, other };
  }
  if (!nonBlank(args.agent)) return malformed;
  return { kind: 'delegation', targets: [args.agent.trim()], parallel: false, prompt, other };
}

function shownText(text: string, agent: string): ShownText {
  const env = parseSyncEnvelope(text, agent);
  return env
    ? { kind: 'envelope', response: limitField(env.response), details: env.details }
    : { kind: 'text', text: limitField(text) };
}

function responseOf(
  c: Extract<Classified, { kind: 'delegation' }>,
  tool: string,
  result: string | undefined,
) {
  if (result === undefined) return { kind: 'missing' } as const;
  if (tool === 'spawn_subagent') return { kind: 'text', text: limitField(result) } as const;
  if (!c.parallel) return shownText(result, c.targets[0]!);
  const blocks = parseParallelBlocks(result, c.targets);
  if (!blocks) return { kind: 'text', text: limitField(result) } as const;
  return {
    kind: 'parallel',
    blocks: blocks.map((b) => ({ agent: b.agent, view: shownText(b.text, b.agent) })),
  } as const;
}

/** One call and its stored result (undefined when none was recorded) as a card. */
export function cardFor(call: ToolCall, result: string | undefined): ToolCard {
  const c = classifyCall(call.name, call.arguments);
  const original = originalOf(call.arguments);
  if (c.kind === 'generic') {
    return {
      kind: 'generic',
      reason: c.reason,
      callId: call.id,
      toolName: call.name,
      input: inputField(call.arguments),
      original,
      result: result === undefined ? { kind: 'missing' } : { kind: 'text', text: limitField(result) },
    };
  }
  return {
    kind: 'delegation',
    tool: call.name as DelegationCard['tool'],
    callId: call.id,
    targets: c.targets,
    parallel: c.parallel,
    task: limitField(c.prompt),
    input: Object.keys(c.other).length > 0 ? inputField(c.other) : null,
    original,
    response: responseOf(c, call.name, result),
  };
}

/**
 * The items of one page of history, oldest first. `following` are the entries right after the page (a call at the
 * page's end finds its results there); they produce no items of their own.
 */
export function transcriptItems(
  page: readonly StoredEntry[],
  following: readonly StoredEntry[] = [],
): TranscriptItem[] {
  const all = [...page, ...following].map((e) => ({ index: e.index, msg: parseEntry(e.raw) }));
  const items: TranscriptItem[] = [];
  const consumed = new Set<number>();
  for (let i = 0; i < page.length; i++) {
    const { index, msg } = all[i]!;
    if (!msg) {
      items.push({ kind: 'unreadable', index });
      continue;
    }
    if (msg.role === 'user') {
      items.push({ kind: 'user', index, text: limitField(msg.content) });
      continue;
    }
    if (msg.role === 'tool') {
      if (!consumed.has(i))
        items.push({
          kind: 'result',
          index,
          toolName: msg.toolName,
          callId: msg.toolCallId,
          text: limitField(msg.content),
        });
      continue;
    }
    if (msg.content.trim()) items.push({ kind: 'assistant', index, text: limitField(msg.content) });
    // Results answer the calls of the assistant message they follow, up to the next user or assistant message.
    const results = new Map<string, string>();
    for (let j = i + 1; j < all.length; j++) {
      const next = all[j]!.msg;
      if (next?.role !== 'tool') break;
      if (results.has(next.toolCallId) || !(msg.toolCalls ?? []).some((c) => c.id === next.toolCallId))
        continue;
      results.set(next.toolCallId, next.content);
      consumed.add(j);
    }
    for (const call of msg.toolCalls ?? [])
      items.push({ kind: 'card', index, card: cardFor(call, results.get(call.id)) });
  }
  return items;
}
