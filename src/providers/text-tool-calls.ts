// The text/XML tool protocol: the prompt section, history rendering and `<tool_call>` parsing.
import { randomUUID } from 'node:crypto';
import type { ChatMessage, ImageInput, ToolCall, ToolSpec } from './types.ts';

export type PlainMessage = { role: 'user' | 'assistant'; content: string; images?: readonly ImageInput[] };

/** The section appended to the system prompt when tools travel as text. */
export function toolProtocolSection(tools: readonly ToolSpec[]): string {
  const listing = tools.map(
    (t) => `### ${t.name}\n${t.description}\nParameters (JSON Schema):\n${JSON.stringify(t.parameters)}`,
  );
  return [
    '## Tool Use Protocol',
    '',
    'To use a tool, reply with one block per call, exactly in this format:',
    '',
    '<tool_call>',
    '{"name": "<tool name>", "arguments": {<arguments as JSON matching the tool schema>}}',
    '</tool_call>',
    '',
    'You may make several calls in one reply. Each result comes back in a <tool_result name="..."> block.',
    'When you have the final answer, reply with plain text and no <tool_call> block.',
    '',
    '## Tools',
    '',
    listing.join('\n\n'),
  ].join('\n');
}

export function renderToolCallBlock(call: ToolCall): string {
  return `<tool_call>\n${JSON.stringify({ name: call.name, arguments: call.arguments })}\n</tool_call>`;
}

/**
 * Turns native tool history into plain turns: calls become `<tool_call>` blocks in the assistant
 * text, results become one user message of `<tool_result>` blocks, so any model can read them.
 */
export function renderTextHistory(messages: readonly ChatMessage[]): PlainMessage[] {
  const out: PlainMessage[] = [];
  let pendingResults: string[] = [];
  const flushResults = (): void => {
    if (pendingResults.length > 0) out.push({ role: 'user', content: pendingResults.join('\n\n') });
    pendingResults = [];
  };
  for (const m of messages) {
    if (m.role === 'tool') {
      pendingResults.push(`<tool_result name="${m.toolName}">\n${m.content}\n</tool_result>`);
      continue;
    }
    flushResults();
    if (m.role === 'user') {
      out.push({ role: 'user', content: m.content, ...(m.images?.length ? { images: m.images } : {}) });
    } else {
      const blocks = (m.toolCalls ?? []).map(renderToolCallBlock);
      out.push({ role: 'assistant', content: [m.content, ...blocks].filter((s) => s !== '').join('\n') });
    }
  }
  flushResults();
  return out;
}

const TOOL_CALL_BLOCK = /<tool_call>([\s\S]*?)<\/tool_call>/g;
const NAME_FIELD = /"name"\s*:\s*"([^"]*)"/;

function parseBlock(inner: string): ToolCall {
  const id = `text_call_${randomUUID()}`;
  const raw = inner.trim();
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    // Keep the raw text so the agent loop can tell the model its call was malformed.
    return { id, name: NAME_FIELD.exec(raw)?.[1] ?? '', arguments: raw };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return { id, name: '', arguments: raw };
  const obj = parsed as Record<string, unknown>;
  const name = typeof obj.name === 'string' ? obj.name : '';
  let args: unknown = obj.arguments ?? {};
  // Some models double-encode the arguments as a JSON string.
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args);
    } catch {
      // leave the string as is: it is what the model sent
    }
  }
  return { id, name, arguments: args };
}

/** Extracts every `<tool_call>` block and returns the text without them. */
export function parseToolCallBlocks(text: string): { text: string; toolCalls: ToolCall[] } {
  const toolCalls: ToolCall[] = [];
  const rest = text.replace(TOOL_CALL_BLOCK, (_m, inner: string) => {
    toolCalls.push(parseBlock(inner));
    return '';
  });
  return { text: toolCalls.length > 0 ? rest.replace(/\n{3,}/g, '\n\n').trim() : text, toolCalls };
}
