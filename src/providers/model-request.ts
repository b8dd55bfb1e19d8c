// Turns a ModelRequest into one AI SDK call (messages, tools, settings) and maps the reply back.
import {
  type JSONSchema7,
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  streamText,
  type ToolSet,
  tool,
} from 'ai';
import type { CallTuning } from './native-thinking.ts';
import { readReply, type StreamedReasoning } from './stream-reply.ts';
import { parseToolCallBlocks, renderTextHistory, toolProtocolSection } from './text-tool-calls.ts';
import { stripThinkBlocks } from './think-blocks.ts';
import type { RequestToolMode } from './tool-protocol.ts';
import type {
  ChatMessage,
  ImageInput,
  ModelRequest,
  ReasoningBlock,
  TokenUsage,
  ToolCall,
  ToolSpec,
} from './types.ts';
import { visibleText } from './visible-text.ts';

export interface PreparedRequest {
  mode: RequestToolMode;
  system: string;
  messages: ModelMessage[];
  tools: ToolSet | undefined;
  /** Whether `<tool_call>` blocks in the reply are tool calls. */
  parseTextToolCalls: boolean;
}

/** A user message; its images become image parts only for a candidate that accepts images (vision.ts). */
function userMessage(
  content: string,
  images: readonly ImageInput[] | undefined,
  vision: boolean,
): ModelMessage {
  if (!vision || !images?.length) return { role: 'user', content };
  return {
    role: 'user',
    content: [
      ...(content === '' ? [] : [{ type: 'text' as const, text: content }]),
      ...images.map((i) => ({ type: 'image' as const, image: i.data, mediaType: i.mediaType })),
    ],
  };
}

function nativeMessages(messages: readonly ChatMessage[], vision: boolean): ModelMessage[] {
  return messages.map((m): ModelMessage => {
    if (m.role === 'user') return userMessage(m.content, m.images, vision);
    if (m.role === 'tool') {
      return {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: m.toolCallId,
            toolName: m.toolName,
            output: { type: 'text', value: m.content },
          },
        ],
      };
    }
    const calls = m.toolCalls ?? [];
    if (calls.length === 0) return { role: 'assistant', content: m.content };
    return {
      role: 'assistant',
      content: [
        ...(m.reasoning ?? []).map((r) => ({
          type: 'reasoning' as const,
          text: r.text,
          providerOptions: r.providerOptions as ReasoningPart['providerOptions'],
        })),
        ...(m.content === '' ? [] : [{ type: 'text' as const, text: m.content }]),
        ...calls.map((c) => ({
          type: 'tool-call' as const,
          toolCallId: c.id,
          toolName: c.name,
          input: c.arguments,
        })),
      ],
    };
  });
}

function nativeTools(specs: readonly ToolSpec[]): ToolSet | undefined {
  if (specs.length === 0) return undefined;
  // No `execute`: baton runs tools itself (approvals, policy), so the SDK only reports the calls.
  const entries = specs.map((s) => [
    s.name,
    tool({ description: s.description, inputSchema: jsonSchema(s.parameters as JSONSchema7) }),
  ]);
  return Object.fromEntries(entries);
}

/** Whether the request carries images that a candidate with vision would get as image parts. */
export const hasImages = (req: Pick<ModelRequest, 'messages'>): boolean =>
  req.messages.some((m) => m.role === 'user' && (m.images?.length ?? 0) > 0);

/** `vision`: the serving candidate accepts images; otherwise only the text lines describe them. */
export function prepareRequest(req: ModelRequest, mode: RequestToolMode, vision = false): PreparedRequest {
  if (mode === 'native') {
    return {
      mode,
      system: req.system,
      messages: nativeMessages(req.messages, vision),
      tools: nativeTools(req.tools),
      parseTextToolCalls: false,
    };
  }
  const offerTools = mode === 'text' && req.tools.length > 0;
  const system = offerTools
    ? [req.system, toolProtocolSection(req.tools)].filter((s) => s !== '').join('\n\n')
    : req.system;
  return {
    mode,
    system,
    messages: renderTextHistory(req.messages).map((m) =>
      m.role === 'user' ? userMessage(m.content, m.images, vision) : { role: m.role, content: m.content },
    ),
    tools: undefined,
    parseTextToolCalls: offerTools,
  };
}

export interface CallSettings extends CallTuning {
  signal: AbortSignal;
  /** Gets the visible answer text (visible-text.ts) each time it changes; must not throw. */
  onText?: (visibleText: string) => void;
}

export interface CallResult {
  text: string;
  toolCalls: ToolCall[];
  reasoning?: ReasoningBlock[];
  usage: TokenUsage;
  /** Settings the provider ignored or adjusted, as JSON text for the debug log. */
  warnings: string[];
}

// The SDK prints warnings with console.warn by default; baton logs them through pino instead.
globalThis.AI_SDK_LOG_WARNINGS = false;

/** One streaming request; it resolves or throws as generateText did for the same reply. */
export async function callModel(
  model: LanguageModel,
  prepared: PreparedRequest,
  settings: CallSettings,
): Promise<CallResult> {
  // Ends the HTTP request when reading stops early (an error part), so the connection is not left open.
  const early = new AbortController();
  const result = streamText({
    model,
    system: prepared.system === '' ? undefined : prepared.system,
    messages: prepared.messages,
    tools: prepared.tools,
    temperature: settings.temperature,
    maxOutputTokens: settings.maxOutputTokens,
    providerOptions: settings.providerOptions,
    // baton's fallback chain owns retries and backoff.
    maxRetries: 0,
    abortSignal: AbortSignal.any([settings.signal, early.signal]),
    // Errors are thrown from readReply; the SDK's default handler would print them with console.error.
    onError: () => {},
  });
  const { onText } = settings;
  const hideToolCalls = prepared.parseTextToolCalls;
  const show = (raw: string, final: boolean): void => onText?.(visibleText(raw, { hideToolCalls, final }));
  const reply = await readReply(result.fullStream, settings.signal, (raw) => show(raw, false)).catch(
    (err: unknown) => {
      early.abort();
      throw err;
    },
  );
  show(reply.text, true);
  const { usage, warnings } = reply;
  if (prepared.parseTextToolCalls) {
    // A call the model only thought about inside <think> must not run.
    const parsed = parseToolCallBlocks(stripThinkBlocks(reply.text));
    return { text: parsed.text, toolCalls: parsed.toolCalls, usage, warnings };
  }
  const reasoning = signedReasoning(reply.reasoning);
  return {
    text: reply.text,
    toolCalls: reply.toolCalls,
    usage,
    warnings,
    ...(reasoning.length ? { reasoning } : {}),
  };
}

type ReasoningPart = Extract<
  Exclude<Extract<ModelMessage, { role: 'assistant' }>['content'], string>[number],
  { type: 'reasoning' }
>;

/** Anthropic refuses a tool-loop continuation whose last assistant turn lost its signed thinking blocks. */
function signedReasoning(parts: readonly StreamedReasoning[]): ReasoningBlock[] {
  return parts.flatMap((p) => {
    const anthropic = p.providerMetadata?.anthropic;
    return anthropic ? [{ text: p.text, providerOptions: { anthropic } }] : [];
  });
}
