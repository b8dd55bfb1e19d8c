// baton's own OpenAI-compatible client (compatible-chat.ts) against the AI SDK package it replaced
// (@ai-sdk/openai-compatible, still installed), on the same wire: every request it sends and every reply it
// reads (stream parts, errors, failures) must come out as the SDK's did.
import net from 'node:net';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type CompatibleChatSettings, createCompatibleChat } from '../../../src/providers/compatible-chat.ts';
import type { ChatModel, ModelCallOptions, SdkPrompt } from '../../../src/providers/sdk-model.ts';
import { withoutEmptyCredentials } from '../../../src/providers/sdk-model.ts';
import { type RawHttpReplies, type RawReply, startRawHttpReplies } from '../../fakes/raw-http-replies.ts';
import { freePort } from '../../helpers/free-port.ts';

const sdkChat = (s: CompatibleChatSettings): ChatModel => {
  const provider = createOpenAICompatible({
    baseURL: s.baseURL,
    apiKey: s.apiKey,
    headers: s.headers,
    name: s.name,
    includeUsage: true,
    fetch: withoutEmptyCredentials(globalThis.fetch),
  });
  const model = provider(s.modelId);
  return { stream: async (o) => (await model.doStream(o)).stream.getReader() };
};

interface ErrorShape {
  name: string;
  message?: string;
  [key: string]: unknown;
}

/** What a caller can see of an error (the SDK's random tool-call ids and validation causes aside). */
function errorShape(e: unknown): unknown {
  if (!(e instanceof Error)) return e;
  const shape: ErrorShape = { name: e.name };
  // A validation failure's message quotes zod's own wording.
  if (e.name !== 'AI_TypeValidationError') shape.message = e.message;
  for (const key of ['statusCode', 'isRetryable', 'responseBody', 'data', 'url'])
    if (key in e) shape[key] = (e as unknown as Record<string, unknown>)[key];
  // The SDK's body object also holds the settings it left undefined; on the wire both are the same JSON.
  if ('requestBodyValues' in e) shape.requestBody = JSON.stringify(e.requestBodyValues);
  return shape;
}

type Outcome = { thrown: unknown } | { parts: unknown[]; readError?: unknown };

const GENERATED = /^[A-Za-z0-9]{16}$/;

async function outcome(model: ChatModel, options: ModelCallOptions): Promise<Outcome> {
  let reader: Awaited<ReturnType<ChatModel['stream']>>;
  try {
    reader = await model.stream(options);
  } catch (e) {
    return { thrown: errorShape(e) };
  }
  const parts: unknown[] = [];
  const ids = new Map<string, string>();
  const stable = (id: unknown) => {
    if (typeof id !== 'string' || !GENERATED.test(id)) return id;
    if (!ids.has(id)) ids.set(id, `generated-${ids.size}`);
    return ids.get(id);
  };
  for (;;) {
    let r: Awaited<ReturnType<typeof reader.read>>;
    try {
      r = await reader.read();
    } catch (e) {
      return { parts, readError: errorShape(e) };
    }
    if (r.done) return { parts };
    const p = { ...r.value } as Record<string, unknown>;
    if ('error' in p) p.error = errorShape(p.error);
    for (const k of ['id', 'toolCallId']) if (k in p && p.type !== 'response-metadata') p[k] = stable(p[k]);
    parts.push(p);
  }
}

const USER_PROMPT: SdkPrompt = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: [{ type: 'text', text: 'hello' }] },
];
const basic: ModelCallOptions = { prompt: USER_PROMPT };

const chunk = (delta: Record<string, unknown> | null, finish: string | null = null, extra = {}) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1_700_000_000,
  model: 'm-1',
  choices: [{ index: 0, delta, finish_reason: finish }],
  ...extra,
});
const ev = (value: unknown) => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;
const USAGE = {
  id: 'chatcmpl-1',
  choices: [],
  usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
};
const sse = (...events: unknown[]): RawReply => ({ pieces: events.map(ev) });
const textReply = (text = 'hi') =>
  sse(chunk({ role: 'assistant', content: text }), chunk({}, 'stop'), USAGE, '[DONE]');

let wire: RawHttpReplies;
beforeAll(async () => {
  wire = await startRawHttpReplies();
});
afterAll(() => wire.close());
beforeEach(() => {
  wire.requests.length = 0;
});

const settings = (over: Partial<CompatibleChatSettings> = {}): CompatibleChatSettings => ({
  baseURL: `${wire.url}/v1/`,
  apiKey: 'sk-test',
  headers: undefined,
  name: 'custom.fake',
  modelId: 'fake-model',
  ...over,
});

/** Both clients meet `reply`; their outcomes must be equal. */
async function sameOutcome(reply: RawReply, options: ModelCallOptions = basic, over = {}): Promise<Outcome> {
  wire.queue(reply, reply);
  return compared(options, over);
}

async function compared(options: ModelCallOptions, over: Partial<CompatibleChatSettings>): Promise<Outcome> {
  const sdk = await outcome(sdkChat(settings(over)), options);
  const own = await outcome(createCompatibleChat(settings(over)), options);
  expect(own).toEqual(sdk);
  return own;
}

describe('the reply: stream parts as the SDK made them', () => {
  test('text in pieces, its finish and usage', async () => {
    const out = await sameOutcome(
      sse(
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Hel' }),
        chunk({ content: 'lo ✓' }),
        chunk({}, 'stop'),
        {
          ...USAGE,
          usage: {
            prompt_tokens: 20,
            completion_tokens: 9,
            prompt_tokens_details: { cached_tokens: 5 },
            completion_tokens_details: {
              reasoning_tokens: 3,
              accepted_prediction_tokens: 1,
              rejected_prediction_tokens: 2,
            },
          },
        },
        '[DONE]',
      ),
    );
    // the comparison has substance: the text and the finish are there
    expect(JSON.stringify(out)).toContain('"delta":"lo ✓"');
    expect(JSON.stringify(out)).toContain('"raw":"stop"');
  });

  test('reasoning (reasoning_content, reasoning, thinking parts) closing before text, and refusals', async () => {
    await sameOutcome(
      sse(
        chunk({ reasoning_content: 'think ' }),
        chunk({ reasoning: 'more' }),
        chunk({ reasoning_content: '', reasoning: 'ignored' }),
        chunk({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'deep' }, { x: 1 }] }] }),
        chunk({
          content: [
            { type: 'text', text: 'answer' },
            { type: 'image', url: 'x' },
          ],
        }),
        chunk({ reasoning_content: 'after' }),
        chunk({ content: 'tail', refusal: 'no' }),
        chunk({ refusal: false }),
        chunk({}, 'stop'),
        '[DONE]',
      ),
    );
  });

  test('tool calls: streamed arguments, parallel calls, a name after its arguments, no index, no id', async () => {
    await sameOutcome(
      sse(
        chunk({ content: 'let me look' }),
        chunk({
          tool_calls: [
            { index: 0, id: 'call_a', type: 'function', function: { name: 'shell', arguments: '{"cmd"' } },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: ':"ls"}' } }] }),
        chunk({ tool_calls: [{ index: 1, id: 'call_b', function: { arguments: '{"p":' } }] }),
        chunk({ tool_calls: [{ index: 1, function: { name: 'file_read', arguments: '1}' } }] }),
        chunk({ tool_calls: [{ index: 2, function: { name: 'no_id', arguments: '{}' } }] }),
        chunk({
          tool_calls: [
            {
              function: { name: 'gemini', arguments: '{"q":1}' },
              extra_content: { google: { thought_signature: 'sig' } },
            },
          ],
        }),
        chunk({}, 'tool_calls'),
        USAGE,
        '[DONE]',
      ),
    );
  });

  test('arguments whose name never comes fail as the SDK failed them', async () => {
    const out = await sameOutcome(
      sse(chunk({ tool_calls: [{ index: 0, id: 'c', function: { arguments: '{}' } }] }), chunk({}, 'stop')),
    );
    expect(JSON.stringify(out)).toContain("Expected 'function.name' to be a string.");
  });

  test.each(['length', 'content_filter', 'function_call', 'eos'])('finish reason %s', async (reason) => {
    await sameOutcome(sse(chunk({ content: 'x' }, reason)));
  });

  test('no finish reason: an error part, then the finish', async () => {
    await sameOutcome(sse(chunk({ content: 'cut' }), '[DONE]'));
  });

  test('an error event after text', async () => {
    await sameOutcome(
      sse(chunk({ content: 'part' }), {
        error: { message: 'overloaded', type: 'server_error', code: 529, x: 1 },
      }),
    );
  });

  test.each([
    ['not JSON', '{"choices": ['],
    ['no choices', { id: 'x' }],
    ['a user role', chunk({ role: 'user', content: 'x' })],
    ['a text usage count', { ...USAGE, usage: { prompt_tokens: '3' } }],
    ['a tool call without function', chunk({ tool_calls: [{ index: 0, id: 'c' }] })],
    ['a bad content part', chunk({ content: [{ text: 'no type' }] })],
    ['an array', [1, 2]],
  ])('a chunk that is %s is an error part', async (_, bad) => {
    await sameOutcome(sse(chunk({ content: 'ok' }), bad, chunk({}, 'stop')));
  });

  test('comments, CRLF, multi-line data, named events, a BOM and pieces split mid-event and mid-character', async () => {
    const text = `${ev(chunk({ content: 'día ✓ 🎉' }))}: keep-alive\r\n\r\nevent: message\r\nid: 7\r\ndata: ${JSON.stringify(chunk({}, 'stop'))}\r\n\r\ndata: {"id":"x",\ndata: "choices":[]}\n\n`;
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    const pieces = [
      bytes.subarray(0, 40),
      bytes.subarray(40, 57),
      bytes.subarray(57, 58),
      bytes.subarray(58),
    ];
    await sameOutcome({ pieces, gapMs: 5 });
  });

  test('a gzip-encoded stream', async () => {
    await sameOutcome({ ...textReply('squeezed'), gzip: true });
  });

  test('a last event without its blank line is dropped', async () => {
    await sameOutcome({
      pieces: [ev(chunk({ content: 'a' })), `data: ${JSON.stringify(chunk({}, 'stop'))}\n`],
    });
  });
});

describe('failures: the same errors', () => {
  test.each<[string, RawReply]>([
    ['a JSON error', { status: 500, pieces: ['{"error":{"message":"boom","type":"server_error"}}'] }],
    ['an empty 429', { status: 429, statusText: 'Too Many Requests', pieces: [] }],
    ['a text 400', { status: 400, statusText: 'Bad Request', pieces: ['nope'] }],
    [
      'an error of another shape',
      { status: 401, statusText: 'Unauthorized', pieces: ['{"error":{"message":1}}'] },
    ],
    ['a 404 with a typed-number error', { status: 404, pieces: ['{"error":{"message":"m","type":5}}'] }],
    ['a 302', { status: 302, statusText: 'Found', pieces: ['moved'] }],
  ])('%s', async (_, reply) => {
    const out = await sameOutcome({ ...reply, headers: { 'content-type': 'application/json' } });
    expect(out).toHaveProperty('thrown.name', 'AI_APICallError');
  });

  test('a connection cut mid-stream fails the read after the parts before it', async () => {
    const cut: RawReply = { pieces: [ev(chunk({ content: 'partial' }))], cut: true, gapMs: 20 };
    wire.queue(cut, cut);
    const sdk = (await outcome(sdkChat(settings()), basic)) as { readError: ErrorShape };
    const own = (await outcome(createCompatibleChat(settings()), basic)) as { readError: ErrorShape };
    // The SDK's web streams drop parts still queued when the body fails; the error is the same.
    expect(own.readError).toEqual(sdk.readError);
    expect(own.readError).toMatchObject({
      message: 'Failed to process successful response',
      statusCode: 200,
    });
  });

  test('a refused connection', async () => {
    const port = await freePort();
    const out = await compared(basic, { baseURL: `http://127.0.0.1:${port}/v1` });
    expect(out).toHaveProperty(
      'thrown.message',
      `Cannot connect to API: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });

  test('a server silent for the idle timeout fails: before the headers as a connection, within the body as a read', async () => {
    const silent = await startRawHttpReplies();
    try {
      silent.queue({ pieces: [], cut: true, gapMs: 5_000 }); // headers flushed, then nothing
      const quick = { ...settings(), baseURL: `${silent.url}/v1`, idleTimeoutMs: 200 };
      const midBody = await outcome(createCompatibleChat(quick), basic);
      expect(midBody).toMatchObject({
        readError: {
          name: 'AI_APICallError',
          message: 'Failed to process successful response',
          isRetryable: true,
        },
      });
    } finally {
      await silent.close();
    }
    const accepted = new Set<net.Socket>();
    const mute = net.createServer((socket) => accepted.add(socket)); // accepts, never answers
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = mute.address() as { port: number };
      const quick = { ...settings(), baseURL: `http://127.0.0.1:${port}/v1`, idleTimeoutMs: 200 };
      expect(await outcome(createCompatibleChat(quick), basic)).toMatchObject({
        thrown: {
          name: 'AI_APICallError',
          message: `Cannot connect to API: no data from 127.0.0.1:${port} for 0.2 s`,
          isRetryable: true,
        },
      });
    } finally {
      for (const socket of accepted) socket.destroy(); // never read: its end would not be seen
      await new Promise((resolve) => mute.close(resolve));
    }
  });

  test('an abort while the request waits rejects with the abort reason', async () => {
    const reply: RawReply = { pieces: [ev(chunk({ content: 'late' })), ev(chunk({}, 'stop'))], gapMs: 300 };
    wire.queue(reply);
    const controller = new AbortController();
    const reason = new Error('stop now');
    const reader = await createCompatibleChat(settings()).stream({
      ...basic,
      abortSignal: controller.signal,
    });
    controller.abort(reason);
    const results: unknown[] = [];
    await expect(
      (async () => {
        for (;;) {
          const r = await reader.read();
          if (r.done) return;
          results.push(r.value);
        }
      })(),
    ).rejects.toBe(reason);
  });
});

describe('the request: the same body, byte for byte', () => {
  const tools: ModelCallOptions['tools'] = [
    {
      type: 'function',
      name: 'shell',
      description: 'Run a command',
      inputSchema: { type: 'object', properties: { cmd: { type: 'string' } } },
    },
    { type: 'function', name: 'bare', inputSchema: { type: 'object' } },
  ];
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
  const history: SdkPrompt = [
    { role: 'system', content: 'sys' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'look' },
        { type: 'file', mediaType: 'image/png', data: png },
      ],
    },
    { role: 'user', content: [{ type: 'file', mediaType: 'image/*', data: png }] },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'hmm', providerOptions: { anthropic: { signature: 's' } } },
        { type: 'text', text: 'running' },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'shell', input: { cmd: 'ls' } },
        { type: 'tool-call', toolCallId: 'c2', toolName: 'shell', input: '{"cmd":"pwd"}' },
        { type: 'tool-call', toolCallId: 'c3', toolName: 'shell', input: 'not json' },
      ],
    },
    {
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'c1', toolName: 'shell', output: { type: 'text', value: 'a\nb' } },
        {
          type: 'tool-result',
          toolCallId: 'c2',
          toolName: 'shell',
          output: { type: 'json', value: { ok: 1 } },
        },
        {
          type: 'tool-result',
          toolCallId: 'c3',
          toolName: 'shell',
          output: { type: 'execution-denied' },
        },
      ],
    },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c4', toolName: 'bare', input: {} }] },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c4',
          toolName: 'bare',
          output: { type: 'error-text', value: 'x' },
        },
      ],
    },
    { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
    { role: 'user', content: [{ type: 'text', text: 'thanks' }] },
  ];

  async function sameRequest(options: ModelCallOptions, over: Partial<CompatibleChatSettings> = {}) {
    wire.queue(textReply(), textReply());
    await outcome(sdkChat(settings(over)), options);
    await outcome(createCompatibleChat(settings(over)), options);
    const [sdk, own] = wire.requests;
    if (sdk === undefined || own === undefined) throw new Error('two requests expected');
    expect(own.body).toBe(sdk.body);
    expect([own.method, own.url]).toEqual([sdk.method, sdk.url]);
    const { 'user-agent': ua, ...rest } = own.headers;
    const { 'user-agent': sdkUa, ...sdkRest } = sdk.headers;
    const compared = ['content-type', 'content-length', 'authorization', 'x-api-key', 'x-extra', 'accept'];
    const pick = (h: typeof rest) => Object.fromEntries(compared.map((k) => [k, h[k]]));
    expect(pick(rest)).toEqual(pick(sdkRest));
    return { own, ua: String(ua), sdkUa: String(sdkUa) };
  }

  test('a whole history with images, tool calls and every tool result kind, tools and settings', async () => {
    const { own } = await sameRequest({
      prompt: history,
      tools,
      toolChoice: { type: 'auto' },
      temperature: 0.3,
      maxOutputTokens: 512,
      providerOptions: { openaiCompatible: { reasoningEffort: 'high' } },
    });
    expect(JSON.parse(own.body)).toMatchObject({
      reasoning_effort: 'high',
      stream_options: { include_usage: true },
    });
  });

  test('a plain prompt without tools or settings', async () => {
    await sameRequest(basic);
  });

  test('headers: extra headers over the key, the user agent kept in front, an empty key sends none', async () => {
    const extra = { 'X-Extra': 'one', 'User-Agent': 'ops-proxy/1', Authorization: 'Bearer other' };
    const { ua, sdkUa } = await sameRequest(basic, { headers: extra });
    expect(ua.startsWith('ops-proxy/1 baton ')).toBe(true);
    expect(sdkUa.startsWith('ops-proxy/1 ')).toBe(true);
    wire.requests.length = 0;
    const { own } = await sameRequest(basic, { apiKey: '', headers: { 'x-api-key': '' } });
    expect(own.headers.authorization).toBeUndefined();
    expect(own.headers['x-api-key']).toBeUndefined();
  });
});
