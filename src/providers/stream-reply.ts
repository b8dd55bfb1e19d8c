// Reads one streamText reply part by part into what generateText returned, with the text as it grows.
import {
  APICallError,
  InvalidResponseDataError,
  type ProviderMetadata,
  type TextStreamPart,
  type ToolSet,
} from 'ai';
import type { TokenUsage, ToolCall } from './types.ts';

export interface StreamedReasoning {
  text: string;
  providerMetadata: ProviderMetadata | undefined;
}

export interface StreamedReply {
  text: string;
  toolCalls: ToolCall[];
  reasoning: StreamedReasoning[];
  usage: TokenUsage;
  /** Settings the provider ignored or adjusted, as JSON text for the debug log. */
  warnings: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';

/**
 * An error part carries what generateText threw (APICallError, parse errors) as is. A provider's own
 * error event after a 200 (Anthropic `error`, an OpenAI error chunk) is a bare JSON object: it is typed
 * the way the SDK types such an event when it comes first (overloaded 529, else 500), so it classifies
 * as the HTTP error it stands for. Its body goes to the log only, like any error body.
 */
function streamError(error: unknown): unknown {
  if (error instanceof Error) return error;
  if (!isObject(error)) return new InvalidResponseDataError({ data: error, message: String(error) });
  const overloaded = error.type === 'overloaded_error';
  return new APICallError({
    message: typeof error.message === 'string' ? error.message : 'error event in the model stream',
    url: '',
    requestBodyValues: undefined,
    statusCode: overloaded ? 529 : 500,
    responseBody: JSON.stringify(error),
    isRetryable: overloaded,
  });
}

/**
 * Reads `parts` to the end; `onText` gets the whole text so far after each text delta. Throws the
 * stream's first error, or `signal.reason` once `signal` aborted (the read stops at once).
 */
export async function readReply(
  parts: ReadableStream<TextStreamPart<ToolSet>>,
  signal: AbortSignal,
  onText: (textSoFar: string) => void,
): Promise<StreamedReply> {
  const reader = parts.getReader();
  const stop = (): void => void reader.cancel().catch(() => {});
  signal.addEventListener('abort', stop, { once: true });
  let text = '';
  const toolCalls: ToolCall[] = [];
  const reasoning = new Map<string, StreamedReasoning>();
  let usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  let warnings: string[] = [];
  let finishReason: string | undefined;
  try {
    for (;;) {
      const { done, value: part } = await reader.read();
      if (signal.aborted) throw signal.reason;
      if (done) break;
      switch (part.type) {
        case 'start-step':
          warnings = part.warnings.map((w) => JSON.stringify(w));
          break;
        case 'text-delta':
          text += part.text;
          onText(text);
          break;
        case 'reasoning-start':
          reasoning.set(part.id, { text: '', providerMetadata: part.providerMetadata });
          break;
        case 'reasoning-delta':
        case 'reasoning-end': {
          // Anthropic's signature arrives as metadata on a delta; the latest metadata wins, as in the SDK.
          const r = reasoning.get(part.id);
          if (r === undefined) break;
          if (part.type === 'reasoning-delta') r.text += part.text;
          r.providerMetadata = part.providerMetadata ?? r.providerMetadata;
          break;
        }
        case 'tool-call':
          // Unparseable native arguments arrive as the raw string (the SDK marks the call invalid).
          toolCalls.push({ id: part.toolCallId, name: part.toolName, arguments: part.input });
          break;
        case 'finish-step':
          usage = { inputTokens: part.usage.inputTokens ?? 0, outputTokens: part.usage.outputTokens ?? 0 };
          finishReason = part.rawFinishReason;
          break;
        case 'error':
          throw streamError(part.error);
        case 'abort':
          throw signal.reason ?? new Error('model request aborted');
      }
    }
  } finally {
    signal.removeEventListener('abort', stop);
    stop();
  }
  // A stream that ends without the provider's finish reason was cut short, or was no event stream at
  // all (a garbage body): the SDK would read either as a short or empty answer.
  if (finishReason === undefined) {
    throw new InvalidResponseDataError({
      data: undefined,
      message: 'Response stream ended without a finish reason.',
    });
  }
  return { text, toolCalls, reasoning: [...reasoning.values()], usage, warnings };
}
