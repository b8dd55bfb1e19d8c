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
          content: turn.text ?? (calls.length > 0 ? null : ''),
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

export function openaiSse(turn: ScriptedTurn, model: string): string {
  const calls = wireCalls(turn);
  const usage = usageOf(turn);
  const chunk = (delta: unknown, finish: string | null, extra: object = {}): string =>
    `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
  let out = chunk({ role: 'assistant', content: '' }, null);
  if (turn.text) out += chunk({ content: turn.text }, null);
  calls.forEach((c, index) => {
    out += chunk(
      { tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: c.json } }] },
      null,
    );
  });
  out += chunk({}, calls.length > 0 ? 'tool_calls' : 'stop', {
    usage: {
      prompt_tokens: usage.input,
      completion_tokens: usage.output,
      total_tokens: usage.input + usage.output,
    },
  });
  return `${out}data: [DONE]\n\n`;
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
      ...(turn.text ? [{ type: 'text', text: turn.text }] : []),
      ...calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.input })),
    ],
    stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: usage.input, output_tokens: usage.output },
  };
}

export function anthropicSse(turn: ScriptedTurn, model: string): string {
  const calls = wireCalls(turn);
  const usage = usageOf(turn);
  const ev = (type: string, data: object): string =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  let out = ev('message_start', {
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
  });
  let index = 0;
  if (turn.text) {
    out += ev('content_block_start', { index, content_block: { type: 'text', text: '' } });
    out += ev('content_block_delta', { index, delta: { type: 'text_delta', text: turn.text } });
    out += ev('content_block_stop', { index });
    index += 1;
  }
  for (const c of calls) {
    out += ev('content_block_start', {
      index,
      content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} },
    });
    out += ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: c.json } });
    out += ev('content_block_stop', { index });
    index += 1;
  }
  out += ev('message_delta', {
    delta: { stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: usage.output },
  });
  return out + ev('message_stop', {});
}

/** The provider's usual error envelope, used when a scripted error turn gives no `body`. */
export function defaultErrorBody(api: WireApi, status: number): unknown {
  const message = `fake model server error ${status}`;
  if (api === 'anthropic')
    return { type: 'error', error: { type: status >= 500 ? 'api_error' : 'invalid_request_error', message } };
  return { error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null } };
}
