// baton's messages and tool specs in the provider model's own prompt format (LanguageModelV3Prompt), built the
// way the AI SDK's streamText built them (its convertToLanguageModelPrompt and prepareToolsAndToolChoice),
// without its per-call zod validation of the whole history. Each provider package turns this into its wire format.
import type { SdkPrompt, SdkTool } from './sdk-model.ts';
import type { PlainMessage } from './text-tool-calls.ts';
import type { ChatMessage, ImageInput, ToolSpec } from './types.ts';

type SdkMessage = SdkPrompt[number];
type UserPart = Extract<SdkMessage, { role: 'user' }>['content'][number];
type AssistantPart = Extract<SdkMessage, { role: 'assistant' }>['content'][number];
type ToolPart = Extract<SdkMessage, { role: 'tool' }>['content'][number];

/**
 * A user message; its images become file parts only for a candidate that accepts images (vision.ts). The SDK
 * re-detected an image's media type from its first bytes; baton's ImageInput is already typed by a stricter
 * signature check (media/sniff.ts), so its media type is used as it is.
 */
function userMessage(
  content: string,
  images: readonly ImageInput[] | undefined,
  vision: boolean,
): SdkMessage {
  if (!vision || !images?.length) return { role: 'user', content: [{ type: 'text', text: content }] };
  const parts: UserPart[] = content === '' ? [] : [{ type: 'text', text: content }];
  for (const i of images) parts.push({ type: 'file', mediaType: i.mediaType, data: i.data });
  return { role: 'user', content: parts };
}

function assistantMessage(m: Extract<ChatMessage, { role: 'assistant' }>): SdkMessage {
  const calls = m.toolCalls ?? [];
  if (calls.length === 0) return { role: 'assistant', content: [{ type: 'text', text: m.content }] };
  const parts: AssistantPart[] = (m.reasoning ?? []).map((r) => ({
    type: 'reasoning',
    text: r.text,
    providerOptions: r.providerOptions as AssistantPart['providerOptions'],
  }));
  if (m.content !== '') parts.push({ type: 'text', text: m.content });
  for (const c of calls)
    parts.push({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: c.arguments });
  return { role: 'assistant', content: parts };
}

const systemMessages = (system: string): SdkMessage[] =>
  system === '' ? [] : [{ role: 'system', content: system }];

/**
 * Ids of tool calls left without a result before the next user message or the end: the SDK refused such a
 * prompt (MissingToolResultsError) before any request.
 */
export function unansweredToolCalls(messages: readonly ChatMessage[]): string[] {
  const open = new Set<string>();
  for (const m of messages) {
    if (m.role === 'tool') open.delete(m.toolCallId);
    else if (m.role === 'user' && open.size > 0) break;
    else if (m.role === 'assistant') for (const c of m.toolCalls ?? []) open.add(c.id);
  }
  return [...open];
}

/** Consecutive tool results go in one tool message, as the SDK combined them. */
export function nativePrompt(system: string, messages: readonly ChatMessage[], vision: boolean): SdkPrompt {
  const prompt = systemMessages(system);
  for (const m of messages) {
    if (m.role === 'tool') {
      const part: ToolPart = {
        type: 'tool-result',
        toolCallId: m.toolCallId,
        toolName: m.toolName,
        output: { type: 'text', value: m.content },
      };
      const last = prompt.at(-1);
      if (last?.role === 'tool') last.content.push(part);
      else prompt.push({ role: 'tool', content: [part] });
      continue;
    }
    if (m.role === 'user') {
      prompt.push(userMessage(m.content, m.images, vision));
      continue;
    }
    prompt.push(assistantMessage(m));
  }
  return prompt;
}

/** The text protocol's plain turns (text-tool-calls.ts renderTextHistory). */
export function plainPrompt(system: string, messages: readonly PlainMessage[], vision: boolean): SdkPrompt {
  const prompt = systemMessages(system);
  for (const m of messages) {
    prompt.push(
      m.role === 'user'
        ? userMessage(m.content, m.images, vision)
        : { role: 'assistant', content: [{ type: 'text', text: m.content }] },
    );
  }
  return prompt;
}

/** Function tools without `execute`: baton runs tools itself (approvals, policy); the model only calls them. */
export function functionTools(specs: readonly ToolSpec[]): SdkTool[] | undefined {
  if (specs.length === 0) return undefined;
  // A repeated name: the last spec wins, in the first one's place (the SDK took tools as an object).
  const byName = new Map<string, SdkTool>();
  for (const s of specs) {
    byName.set(s.name, {
      type: 'function',
      name: s.name,
      description: s.description,
      inputSchema: s.parameters as Extract<SdkTool, { type: 'function' }>['inputSchema'],
    });
  }
  return [...byName.values()];
}
