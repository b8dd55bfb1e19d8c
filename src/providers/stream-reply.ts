// Reads a model's stream parts (part-reader.ts) into one reply, with the text as it grows: what streamText's
// fullStream carried for one step, without its chain of transform streams.
import type { ProviderMetadata } from 'ai';
import type { PartReader } from './part-reader.ts';
import { APICallError, InvalidResponseDataError, NoOutputGeneratedError } from './sdk-errors.ts';
import { toolInput } from './tool-input.ts';
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

/** The parts that streamText counted as output of a step (its `isOutputChunkType`). */
const OUTPUT_PARTS: ReadonlySet<string> = new Set([
  'file',
  'source',
  'text-start',
  'text-end',
  'text-delta',
  'reasoning-start',
  'reasoning-end',
  'reasoning-delta',
  'tool-input-start',
  'tool-input-end',
  'tool-input-delta',
  'tool-approval-request',
  'tool-call',
  'tool-result',
]);

/** streamText's part ids: a provider id reused after its block ended starts a block of its own. */
function createIdReserver(): (id: string) => string {
  const used = new Set<string>();
  let n = 0;
  return (id) => {
    let unique = id;
    while (used.has(unique)) unique = `${id}\u0000${++n}`;
    used.add(unique);
    return unique;
  };
}

/**
 * Reads `parts` to the end; `onText` gets the whole text so far after each text delta. A tool call's input is
 * parsed (tool-input.ts; `offered` names the request's tools). Throws the stream's first error, or
 * `signal.reason` once `signal` aborted (the read stops at once).
 */
export async function readReply(
  reader: PartReader,
  offered: ReadonlySet<string>,
  signal: AbortSignal,
  onText: (textSoFar: string) => void,
): Promise<StreamedReply> {
  const stop = (): void => void reader.cancel().catch(() => {});
  signal.addEventListener('abort', stop, { once: true });
  let text = '';
  const toolCalls: ToolCall[] = [];
  const reasoning = new Map<string, StreamedReasoning>();
  const reasoningIds = new Map<string, string>();
  const reserve = createIdReserver();
  let usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  let warnings: string[] = [];
  let finishReason: string | undefined;
  let finished = false;
  let output = false;
  try {
    for (;;) {
      const { done, value: part } = await reader.read();
      if (signal.aborted) throw signal.reason;
      if (done) break;
      if (!output && OUTPUT_PARTS.has(part.type)) output = true;
      switch (part.type) {
        case 'stream-start':
          warnings = part.warnings.map((w) => JSON.stringify(w));
          break;
        case 'text-delta':
          if (part.delta.length === 0) break;
          text += part.delta;
          onText(text);
          break;
        case 'reasoning-start': {
          const id = reserve(part.id);
          reasoningIds.set(part.id, id);
          reasoning.set(id, { text: '', providerMetadata: part.providerMetadata });
          break;
        }
        case 'reasoning-delta':
        case 'reasoning-end': {
          // Anthropic's signature arrives as metadata on a delta; the latest metadata wins, as in the SDK.
          const r = reasoning.get(reasoningIds.get(part.id) ?? part.id);
          if (part.type === 'reasoning-end') reasoningIds.delete(part.id);
          if (r === undefined) break;
          if (part.type === 'reasoning-delta') r.text += part.delta;
          r.providerMetadata = part.providerMetadata ?? r.providerMetadata;
          break;
        }
        case 'tool-call': {
          const args = toolInput(part.input, offered.has(part.toolName));
          toolCalls.push({ id: part.toolCallId, name: part.toolName, arguments: args });
          break;
        }
        case 'finish':
          usage = {
            inputTokens: part.usage.inputTokens.total ?? 0,
            outputTokens: part.usage.outputTokens.total ?? 0,
          };
          finishReason = part.finishReason.raw;
          finished = true;
          break;
        case 'error':
          throw streamError(part.error);
      }
    }
  } finally {
    signal.removeEventListener('abort', stop);
    stop();
  }
  // A stream that ends without the provider's finish reason was cut short, or was no event stream at
  // all (a garbage body): the SDK would read either as a short or empty answer. streamText's own error for a
  // stream with neither a finish part nor any output comes first.
  if (!finished && !output) {
    throw new NoOutputGeneratedError({
      message: 'No output generated. The model stream ended without a finish chunk.',
    });
  }
  if (finishReason === undefined) {
    throw new InvalidResponseDataError({
      data: undefined,
      message: 'Response stream ended without a finish reason.',
    });
  }
  return { text, toolCalls, reasoning: [...reasoning.values()], usage, warnings };
}
