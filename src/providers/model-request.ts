// Turns a ModelRequest into one streamed call of the candidate's model (prompt, tools, settings) and maps the
// reply back.

import { functionTools, nativePrompt, plainPrompt, unansweredToolCalls } from './model-prompt.ts';
import type { CallTuning } from './native-thinking.ts';
import { InvalidArgumentError, MissingToolResultsError } from './sdk-errors.ts';
import type { ChatModel, ModelCallOptions, SdkPrompt, SdkTool } from './sdk-model.ts';
import { readReply, type StreamedReasoning, type StreamedReply } from './stream-reply.ts';
import { parseToolCallBlocks, renderTextHistory, toolProtocolSection } from './text-tool-calls.ts';
import { stripThinkBlocks } from './think-blocks.ts';
import type { RequestToolMode } from './tool-protocol.ts';
import type { ModelRequest, ReasoningBlock, TokenUsage, ToolCall } from './types.ts';
import { visibleText } from './visible-text.ts';

export interface PreparedRequest {
  mode: RequestToolMode;
  /** The system prompt and the history in the provider model's prompt format (model-prompt.ts). */
  prompt: SdkPrompt;
  tools: SdkTool[] | undefined;
  /** Names of `tools`: a native call to one of them with empty input has the arguments `{}`. */
  toolNames: ReadonlySet<string>;
  /** Whether `<tool_call>` blocks in the reply are tool calls. */
  parseTextToolCalls: boolean;
  /** Ids of native tool calls without a result before the next user message: every attempt fails (model-prompt.ts). */
  unanswered: string[];
}

/** Whether the request carries images that a candidate with vision would get as image parts. */
export const hasImages = (req: Pick<ModelRequest, 'messages'>): boolean =>
  req.messages.some((m) => m.role === 'user' && (m.images?.length ?? 0) > 0);

/** `vision`: the serving candidate accepts images; otherwise only the text lines describe them. */
export function prepareRequest(req: ModelRequest, mode: RequestToolMode, vision = false): PreparedRequest {
  if (mode === 'native') {
    const tools = functionTools(req.tools);
    return {
      mode,
      prompt: nativePrompt(req.system, req.messages, vision),
      tools,
      toolNames: new Set(tools?.map((t) => t.name)),
      parseTextToolCalls: false,
      unanswered: unansweredToolCalls(req.messages),
    };
  }
  const offerTools = mode === 'text' && req.tools.length > 0;
  const system = offerTools
    ? [req.system, toolProtocolSection(req.tools)].filter((s) => s !== '').join('\n\n')
    : req.system;
  return {
    mode,
    prompt: plainPrompt(system, renderTextHistory(req.messages), vision),
    tools: undefined,
    toolNames: new Set(),
    parseTextToolCalls: offerTools,
    unanswered: [],
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

// The SDK prints warnings with console.warn by default (the transcription model's too); baton logs them through
// pino instead.
globalThis.AI_SDK_LOG_WARNINGS = false;

/** streamText's checks of the call settings baton sets; a bad value fails the attempt before any request. */
function checkedTuning(settings: CallTuning): Pick<ModelCallOptions, 'temperature' | 'maxOutputTokens'> {
  const { maxOutputTokens: max, temperature } = settings;
  if (max !== undefined && (!Number.isInteger(max) || max < 1)) {
    const message = Number.isInteger(max)
      ? 'maxOutputTokens must be >= 1'
      : 'maxOutputTokens must be an integer';
    throw new InvalidArgumentError({ parameter: 'maxOutputTokens', value: max, message });
  }
  if (temperature !== undefined && typeof temperature !== 'number') {
    const message = 'temperature must be a number';
    throw new InvalidArgumentError({ parameter: 'temperature', value: temperature, message });
  }
  return { maxOutputTokens: max, temperature };
}

/**
 * One streaming request through the candidate's model (sdk-model.ts): one attempt, no retries (baton's fallback
 * chain owns retries and backoff, as streamText's maxRetries 0 did). It resolves or throws as streamText's
 * reply did: HTTP failures as the provider's APICallError, a bad stream as the errors of stream-reply.ts.
 */
export async function callModel(
  model: ChatModel,
  prepared: PreparedRequest,
  settings: CallSettings,
): Promise<CallResult> {
  if (prepared.unanswered.length > 0) throw new MissingToolResultsError({ toolCallIds: prepared.unanswered });
  // Ends the HTTP request when reading stops early (an error part), so the connection is not left open.
  const early = new AbortController();
  const options: ModelCallOptions = {
    ...checkedTuning(settings),
    prompt: prepared.prompt,
    tools: prepared.tools,
    toolChoice: prepared.tools === undefined ? undefined : { type: 'auto' },
    providerOptions: settings.providerOptions,
    abortSignal: AbortSignal.any([settings.signal, early.signal]),
  };
  const { onText } = settings;
  const hideToolCalls = prepared.parseTextToolCalls;
  const show = (raw: string, final: boolean): void => onText?.(visibleText(raw, { hideToolCalls, final }));
  let reply: StreamedReply;
  try {
    const parts = await model.stream(options);
    reply = await readReply(parts, prepared.toolNames, settings.signal, (raw) => show(raw, false));
  } catch (err) {
    early.abort();
    // An abort while the request was on its way ends the attempt with the abort's reason, as while reading.
    throw settings.signal.aborted ? settings.signal.reason : err;
  }
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

/** Anthropic refuses a tool-loop continuation whose last assistant turn lost its signed thinking blocks. */
function signedReasoning(parts: readonly StreamedReasoning[]): ReasoningBlock[] {
  return parts.flatMap((p) => {
    const anthropic = p.providerMetadata?.anthropic;
    return anthropic ? [{ text: p.text, providerOptions: { anthropic } }] : [];
  });
}
