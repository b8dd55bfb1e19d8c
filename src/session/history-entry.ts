// One stored history message as read back from Redis: validated, and the transcript kept well formed when a
// damaged entry had to be skipped (a tool call without its result, or a result without its call, is refused by
// model APIs, so such orphans go too).
import { z } from 'zod';
import type { Logger } from '../core/logger.ts';
import { parseRecord } from '../core/redis-record.ts';
import type { ChatMessage } from '../providers/types.ts';

const toolCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.unknown() });
const reasoningSchema = z.object({
  text: z.string(),
  providerOptions: z.record(z.string(), z.record(z.string(), z.unknown())),
});

/** The ChatMessage union (providers/types.ts) as stored: JSON of exactly these shapes. */
export const chatMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({
    role: z.literal('assistant'),
    content: z.string(),
    toolCalls: z.array(toolCallSchema).optional(),
    reasoning: z.array(reasoningSchema).optional(),
  }),
  z.object({ role: z.literal('tool'), toolCallId: z.string(), toolName: z.string(), content: z.string() }),
]);

/** Stored entries back into messages: unreadable ones are logged and skipped, then orphans are dropped. */
export function readHistoryEntries(
  raw: readonly string[],
  ctx: { logger: Pick<Logger, 'warn'>; key: string },
): ChatMessage[] {
  const read: ChatMessage[] = [];
  raw.forEach((r, i) => {
    const msg =
      plainMessage(r) ??
      parseRecord(chatMessageSchema, r, { ...ctx, key: `${ctx.key}[${i}]`, what: 'history entry' });
    if (msg) read.push(msg as ChatMessage);
  });
  const kept = dropOrphans(read);
  if (kept.length < read.length)
    ctx.logger.warn(
      { key: ctx.key, dropped: read.length - kept.length },
      'history tool calls without their results dropped',
    );
  return kept;
}

// A turn reads up to 50 entries and the schema check was a measurable share of its time, so the shapes
// baton writes itself are recognised by hand first. Only an exact match (the same keys the schema keeps,
// nothing more) takes this path; anything else, reasoning included, goes through the schema and its log line.
function plainMessage(raw: string): ChatMessage | undefined {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isObject(v) || typeof v.content !== 'string') return undefined;
  const keys = Object.keys(v).length;
  if (v.role === 'user') return keys === 2 ? (v as ChatMessage) : undefined;
  if (v.role === 'tool') {
    const ok = keys === 4 && typeof v.toolCallId === 'string' && typeof v.toolName === 'string';
    return ok ? (v as ChatMessage) : undefined;
  }
  if (v.role !== 'assistant') return undefined;
  if (keys === 2) return v as ChatMessage;
  const ok = keys === 3 && Array.isArray(v.toolCalls) && v.toolCalls.every(isPlainToolCall);
  return ok ? (v as ChatMessage) : undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isPlainToolCall(c: unknown): boolean {
  return (
    isObject(c) &&
    Object.keys(c).length === 3 &&
    typeof c.id === 'string' &&
    typeof c.name === 'string' &&
    'arguments' in c
  );
}

/**
 * Keeps a tool call only when its result follows it (before the next user or assistant message), and a tool
 * result only when it answers a kept call of the assistant message it follows.
 */
export function dropOrphans(messages: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'user') {
      out.push(m);
      continue;
    }
    if (m.role === 'tool') continue; // reached only when no assistant call precedes it: an orphan
    let end = i + 1;
    while (end < messages.length && messages[end]!.role === 'tool') end++;
    if (end === i + 1 && !m.toolCalls?.length) {
      out.push(m); // a plain answer, most of a history: nothing to pair
      continue;
    }
    const results = messages.slice(i + 1, end) as Extract<ChatMessage, { role: 'tool' }>[];
    i = end - 1;
    const calls = m.toolCalls ?? [];
    const answered = new Set(results.map((r) => r.toolCallId));
    const keptCalls = calls.filter((c) => answered.has(c.id));
    if (keptCalls.length === calls.length) {
      out.push(m, ...results.filter((r) => calls.some((c) => c.id === r.toolCallId)));
      continue;
    }
    // Some calls lost their results: keep the rest; signed reasoning belongs to the full call set, so it goes.
    const { reasoning: _dropped, toolCalls: _calls, ...rest } = m;
    if (keptCalls.length > 0) out.push({ ...rest, toolCalls: keptCalls });
    else if (rest.content.trim()) out.push(rest);
    const keptIds = new Set(keptCalls.map((c) => c.id));
    out.push(...results.filter((r) => keptIds.has(r.toolCallId)));
  }
  return out;
}
