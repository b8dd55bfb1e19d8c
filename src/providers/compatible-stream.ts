// A streamed chat completion's chunks as stream parts: what @ai-sdk/openai-compatible 2.x's doStream transform
// made of them (text and reasoning blocks, tool calls through the SDK's own StreamingToolCallTracker, the
// finish with its usage), without the web streams around it.
import { InvalidResponseDataError } from '@ai-sdk/provider';
import { generateId, StreamingToolCallTracker } from '@ai-sdk/provider-utils';
import type { ChatChunk, ChatUsage, ChunkDelta, ToolCallDelta } from './compatible-chunk.ts';
import type { SdkStreamPart } from './sdk-model.ts';

type FinishPart = Extract<SdkStreamPart, { type: 'finish' }>;

function convertUsage(usage: ChatUsage | null | undefined): FinishPart['usage'] {
  if (usage == null) {
    return {
      inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: undefined, text: undefined, reasoning: undefined },
      raw: undefined,
    };
  }
  const prompt = usage.prompt_tokens ?? 0;
  const completion = usage.completion_tokens ?? 0;
  const cacheRead = usage.prompt_tokens_details?.cached_tokens ?? 0;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens ?? 0;
  return {
    inputTokens: { total: prompt, noCache: prompt - cacheRead, cacheRead, cacheWrite: undefined },
    outputTokens: { total: completion, text: Math.max(0, completion - reasoning), reasoning },
    raw: usage as FinishPart['usage']['raw'],
  };
}

function unifiedFinishReason(raw: string, hasRefusal: boolean): FinishPart['finishReason']['unified'] {
  switch (raw) {
    case 'stop':
      return hasRefusal ? 'content-filter' : 'stop';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    case 'function_call':
    case 'tool_calls':
      return 'tool-calls';
    default:
      return 'other';
  }
}

/** A delta's content as text and reasoning pieces (`thinking` parts are reasoning). */
function contentPieces(content: ChunkDelta['content']): Array<{ reasoning: boolean; text: string }> {
  if (content == null) return [];
  if (typeof content === 'string') return content.length > 0 ? [{ reasoning: false, text: content }] : [];
  const out: Array<{ reasoning: boolean; text: string }> = [];
  for (const part of content) {
    if (part.type === 'text' && typeof part.text === 'string') {
      if (part.text.length > 0) out.push({ reasoning: false, text: part.text });
    } else if (part.type === 'thinking' && Array.isArray(part.thinking)) {
      const text = (part.thinking as unknown[])
        .filter(
          (c): c is { text: string } =>
            c !== null &&
            typeof c === 'object' &&
            'type' in c &&
            c.type === 'text' &&
            'text' in c &&
            typeof c.text === 'string',
        )
        .map((c) => c.text)
        .join('');
      if (text.length > 0) out.push({ reasoning: true, text });
    }
  }
  return out;
}

export interface ChunkParts {
  /** Parts for one checked chunk (compatible-chunk.ts); may throw as the SDK's transform threw. */
  chunk(value: ChatChunk): void;
  /** A chunk that is not JSON, or not of the chunk's shape. */
  invalid(error: unknown): void;
  /** The stream ended: closes open blocks and tool calls, then the finish part. */
  end(): void;
}

/** `metadataKey`: the provider options key of the tool calls' Gemini thought signatures. */
export function chunkParts(push: (part: SdkStreamPart) => void, metadataKey: string): ChunkParts {
  const controller = { enqueue: push } as unknown as ConstructorParameters<
    typeof StreamingToolCallTracker
  >[0];
  let tracker: StreamingToolCallTracker | undefined;
  const track = (): StreamingToolCallTracker => {
    tracker ??= new StreamingToolCallTracker(controller, {
      generateId,
      extractMetadata: (delta: ToolCallDelta) => {
        const signature = delta.extra_content?.google?.thought_signature;
        return signature ? { [metadataKey]: { thoughtSignature: signature } } : undefined;
      },
      buildToolCallProviderMetadata: (metadata: unknown) => metadata,
    } as ConstructorParameters<typeof StreamingToolCallTracker>[1]);
    return tracker;
  };
  // A call's name may come after its first argument deltas: they wait here until it does.
  const pending = new Map<
    number,
    { id: string | null; args: string; extra: ToolCallDelta['extra_content'] }
  >();
  const forwarded = new Set<number>();
  let finishReason: FinishPart['finishReason'] | undefined;
  let rawFinishReason: string | undefined;
  let usage: ChatUsage | null | undefined;
  let first = true;
  let reasoningOpen = false;
  let textOpen = false;
  let hasRefusal = false;

  const toolCallDelta = (d: ToolCallDelta): void => {
    const index = d.index;
    if (index == null || forwarded.has(index)) {
      track().processDelta(d as Parameters<StreamingToolCallTracker['processDelta']>[0]);
      return;
    }
    let p = pending.get(index);
    if (p === undefined) {
      p = { id: d.id ?? null, args: '', extra: d.extra_content ?? null };
      pending.set(index, p);
    } else {
      if (p.id == null && d.id != null) p.id = d.id;
      if (p.extra == null && d.extra_content != null) p.extra = d.extra_content;
    }
    if (d.function.arguments != null) p.args += d.function.arguments;
    const name = d.function.name;
    if (name != null) {
      track().processDelta({
        index,
        id: p.id,
        function: { name, arguments: p.args },
        extra_content: p.extra ?? undefined,
      } as Parameters<StreamingToolCallTracker['processDelta']>[0]);
      pending.delete(index);
      forwarded.add(index);
    }
  };
  const reasoningDelta = (delta: string): void => {
    if (textOpen) {
      push({ type: 'text-end', id: 'txt-0' });
      textOpen = false;
    }
    if (!reasoningOpen) {
      push({ type: 'reasoning-start', id: 'reasoning-0' });
      reasoningOpen = true;
    }
    push({ type: 'reasoning-delta', id: 'reasoning-0', delta });
  };
  const closeReasoning = (): void => {
    if (!reasoningOpen) return;
    push({ type: 'reasoning-end', id: 'reasoning-0' });
    reasoningOpen = false;
  };
  const textDelta = (delta: string): void => {
    closeReasoning();
    if (!textOpen) {
      push({ type: 'text-start', id: 'txt-0' });
      textOpen = true;
    }
    push({ type: 'text-delta', id: 'txt-0', delta });
  };

  return {
    invalid(error) {
      finishReason = { unified: 'error', raw: undefined };
      push({ type: 'error', error });
    },
    chunk(value) {
      if ('error' in value) {
        finishReason = { unified: 'error', raw: undefined };
        push({ type: 'error', error: value.error });
        return;
      }
      if (first) {
        first = false;
        push({
          type: 'response-metadata',
          id: value.id ?? undefined,
          modelId: value.model ?? undefined,
          timestamp: value.created != null ? new Date(value.created * 1000) : undefined,
        });
      }
      if (value.usage != null) usage = value.usage;
      const choice = value.choices[0];
      if (choice?.finish_reason != null) rawFinishReason = choice.finish_reason;
      const delta = choice?.delta;
      if (delta == null) return;
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (reasoning) reasoningDelta(reasoning);
      for (const piece of contentPieces(delta.content)) {
        if (piece.reasoning) reasoningDelta(piece.text);
        else textDelta(piece.text);
      }
      if (delta.refusal != null && delta.refusal.length > 0) {
        hasRefusal = true;
        textDelta(delta.refusal);
      }
      if (delta.tool_calls != null && delta.tool_calls.length > 0) {
        closeReasoning();
        for (const d of delta.tool_calls) toolCallDelta(d);
      }
    },
    end() {
      closeReasoning();
      if (textOpen) push({ type: 'text-end', id: 'txt-0' });
      if (pending.size > 0 || tracker !== undefined) {
        for (const [index, p] of pending)
          track().processDelta({ index, id: p.id, function: { arguments: p.args } } as Parameters<
            StreamingToolCallTracker['processDelta']
          >[0]);
        pending.clear();
        tracker?.flush();
      }
      if (rawFinishReason != null)
        finishReason = { unified: unifiedFinishReason(rawFinishReason, hasRefusal), raw: rawFinishReason };
      if (finishReason === undefined) {
        finishReason = { unified: 'error', raw: undefined };
        push({
          type: 'error',
          error: new InvalidResponseDataError({
            data: undefined,
            message: 'Response stream ended without a finish reason.',
          }),
        });
      }
      const metadata: Record<string, number> = {};
      const details = usage?.completion_tokens_details;
      if (details?.accepted_prediction_tokens != null)
        metadata.acceptedPredictionTokens = details.accepted_prediction_tokens;
      if (details?.rejected_prediction_tokens != null)
        metadata.rejectedPredictionTokens = details.rejected_prediction_tokens;
      push({
        type: 'finish',
        finishReason,
        usage: convertUsage(usage),
        providerMetadata: { [metadataKey]: metadata },
      });
    },
  };
}
