// Encodes a scripted model turn as OpenAI chat-completions or Anthropic messages JSON / SSE.
import type { ScriptedTurn } from './model-server.ts';

export type WireApi = 'openai' | 'anthropic';

interface WireCall {
  id: string;
  name: string;
  /** The arguments exactly as the wire carries them (OpenAI: a JSON string). */
  json: string;
  input: unknown;
}

let callCounter = 0;

function wireCalls(turn: ScriptedTurn): WireCall[] {
  return (turn.toolCalls ?? []).map((c) => {
    callCounter += 1;
    // A string is sent verbatim so tests can script malformed argument JSON.
    const json = typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {});
    let input: unknown = c.arguments ?? {};
    if (typeof c.arguments === 'string') {
      try {
        input = JSON.parse(c.arguments);
      } catch {
        input = {};
      }
    }
    return { id: c.id ?? `call_fake_${callCounter}`, name: c.name, json, input };
  });
}

/** The text deltas of a streamed reply: `textChunks`, else `text` as one. */
function textChunksOf(turn: ScriptedTurn): string[] {
  return turn.textChunks ?? (turn.text ? [turn.text] : []);
}

/** The whole text of a reply (a JSON reply carries the chunks joined). */
function textOf(turn: ScriptedTurn): string | undefined {
  return turn.textChunks?.join('') ?? turn.text;
}

/** One SSE frame; `textChunk` marks the frames that carry a text delta (ScriptedTurn.cutAfterChunks). */
export interface SseEvent {
  frame: string;
  textChunk: boolean;
}

function usageOf(turn: ScriptedTurn): { input: number; output: number } {
  return { input: turn.usage?.inputTokens ?? 11, output: turn.usage?.outputTokens ?? 7 };
}

export function openaiJson(turn: ScriptedTurn, model: string): unknown {
  const calls = wireCalls(turn);
  const usage = usageOf(turn);
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: textOf(turn) ?? (calls.length > 0 ? null : ''),
          ...(calls.length > 0
            ? {
                tool_calls: calls.map((c) => ({
                  id: c.id,
                  type: 'function',
                  function: { name: c.name, arguments: c.json },
                })),
              }
            : {}),
        },
        finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
      },
    ],
    usage: {
      prompt_tokens: usage.input,
      completion_tokens: usage.output,
      total_tokens: usage.input + usage.output,
    },
  };
}

/** Usage comes in a last chunk with no choices, and only when the request asked for it, as OpenAI does. */
export function openaiSse(turn: ScriptedTurn, model: string, includeUsage: boolean): SseEvent[] {
  const calls = wireCalls(turn);
  const usage = usageOf(turn);
  const chunk = (choices: unknown[], extra: object = {}, textChunk = false): SseEvent => ({
    frame: `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model, choices, ...extra })}\n\n`,
    textChunk,
  });
  const delta = (d: unknown, finish: string | null = null) => [{ index: 0, delta: d, finish_reason: finish }];
  const out = [chunk(delta({ role: 'assistant', content: '' }))];
  for (const text of textChunksOf(turn)) out.push(chunk(delta({ content: text }), {}, true));
  if (turn.streamError) {
    const error = { ...turn.streamError, param: null, code: null };
    return [...out, { frame: `data: ${JSON.stringify({ error })}\n\n`, textChunk: false }];
  }
  calls.forEach((c, index) => {
    const call = { index, id: c.id, type: 'function', function: { name: c.name, arguments: c.json } };
    out.push(chunk(delta({ tool_calls: [call] })));
  });
  out.push(chunk(delta({}, calls.length > 0 ? 'tool_calls' : 'stop')));
  if (includeUsage) {
    const wire = { prompt_tokens: usage.input, completion_tokens: usage.output };
    out.push(chunk([], { usage: { ...wire, total_tokens: usage.input + usage.output } }));
  }
  out.push({ frame: 'data: [DONE]\n\n', textChunk: false });
  return out;
}

export function anthropicJson(turn: ScriptedTurn, model: string): unknown {
  const calls = wireCalls(turn);
  const usage = usageOf(turn);
  return {
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model,
    content: [
      ...(turn.thinking
        ? [{ type: 'thinking', thinking: turn.thinking.text, signature: turn.thinking.signature }]
        : []),
      ...(textOf(turn) ? [{ type: 'text', text: textOf(turn) }] : []),
      ...calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.input })),
    ],
    stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: usage.input, output_tokens: usage.output },
  };
}

export function anthropicSse(turn: ScriptedTurn, model: string): SseEvent[] {
  const calls = wireCalls(turn);
  const usage = usageOf(turn);
  const ev = (type: string, data: object, textChunk = false): SseEvent => ({
    frame: `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`,
    textChunk,
  });
  const out = [
    ev('message_start', {
      message: {
        id: 'msg_fake',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.input, output_tokens: 0 },
      },
    }),
  ];
  let index = 0;
  const block = (start: object, deltas: object[], textChunks = false): void => {
    out.push(ev('content_block_start', { index, content_block: start }));
    for (const delta of deltas) out.push(ev('content_block_delta', { index, delta }, textChunks));
    out.push(ev('content_block_stop', { index }));
    index += 1;
  };
  if (turn.thinking) {
    const { text, signature } = turn.thinking;
    block({ type: 'thinking', thinking: '' }, [
      { type: 'thinking_delta', thinking: text },
      { type: 'signature_delta', signature },
    ]);
  }
  const texts = textChunksOf(turn);
  if (texts.length > 0) {
    block(
      { type: 'text', text: '' },
      texts.map((text) => ({ type: 'text_delta', text })),
      true,
    );
  }
  if (turn.streamError) return [...out, ev('error', { error: turn.streamError })];
  for (const c of calls) {
    block({ type: 'tool_use', id: c.id, name: c.name, input: {} }, [
      { type: 'input_json_delta', partial_json: c.json },
    ]);
  }
  out.push(
    ev('message_delta', {
      delta: { stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: usage.output },
    }),
  );
  out.push(ev('message_stop', {}));
  return out;
}

/** The provider's usual error envelope, used when a scripted error turn gives no `body`. */
export function defaultErrorBody(api: WireApi, status: number): unknown {
  const message = `fake model server error ${status}`;
  if (api === 'anthropic')
    return { type: 'error', error: { type: status >= 500 ? 'api_error' : 'invalid_request_error', message } };
  return { error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null } };
}
