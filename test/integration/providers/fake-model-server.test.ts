// The fake model server itself: routing, recording, streaming and the exhausted-script reply.
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { type FakeModelServer, startFakeModelServer } from '../../fakes/model-server.ts';

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const post = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** The JSON payloads of an SSE body, without the `[DONE]` terminator. */
async function sseEvents(res: Response): Promise<Record<string, unknown>[]> {
  const text = await res.text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]')
    .map((l) => JSON.parse(l.slice(6)));
}

test('OpenAI streaming carries text, a tool call, and usage only when asked', async () => {
  const turn = {
    text: 'hi',
    toolCalls: [{ name: 'shell', arguments: { c: 1 } }],
    usage: { inputTokens: 3, outputTokens: 4 },
  };
  server.script([turn, turn]);
  const body = { model: 'm', stream: true, messages: [] };
  const res = await post('/v1/chat/completions', { ...body, stream_options: { include_usage: true } });
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  const events = await sseEvents(res);
  const deltas = events.map((e) => JSON.stringify(e));
  expect(deltas.some((d) => d.includes('"content":"hi"'))).toBe(true);
  expect(deltas.some((d) => d.includes('"name":"shell"') && d.includes('"arguments":"{\\"c\\":1}"'))).toBe(
    true,
  );
  expect(events.at(-2)).toMatchObject({ choices: [{ finish_reason: 'tool_calls' }] });
  expect(events.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 4 } });
  const unasked = await sseEvents(await post('/v1/chat/completions', body));
  expect(unasked.some((e) => 'usage' in e)).toBe(false);
});

test('text chunks are separate deltas in a stream and joined in a JSON reply', async () => {
  server.script([
    { textChunks: ['Hel', 'lo'] },
    { textChunks: ['Hel', 'lo'] },
    { textChunks: ['Hel', 'lo'] },
  ]);
  const openai = await sseEvents(
    await post('/v1/chat/completions', { model: 'm', stream: true, messages: [] }),
  );
  const contents = openai.map((e) => (e.choices as { delta: { content?: string } }[])[0]?.delta.content);
  expect(contents.filter((c) => c)).toEqual(['Hel', 'lo']);
  const anthropic = await sseEvents(await post('/v1/messages', { model: 'm', stream: true, messages: [] }));
  const texts = anthropic.map((e) => (e.delta as { text?: string } | undefined)?.text);
  expect(texts.filter((t) => t)).toEqual(['Hel', 'lo']);
  const json = (await (await post('/v1/messages', { model: 'm', messages: [] })).json()) as {
    content: { text: string }[];
  };
  expect(json.content).toEqual([{ type: 'text', text: 'Hello' }]);
});

test('chunkDelayMs spaces the events out; cutAfterChunks drops the connection mid-stream', async () => {
  server.script([
    { textChunks: ['a', 'b', 'c'], chunkDelayMs: 40 },
    { textChunks: ['a', 'b', 'c'], cutAfterChunks: 2 },
  ]);
  const started = Date.now();
  const slow = await sseEvents(
    await post('/v1/chat/completions', { model: 'm', stream: true, messages: [] }),
  );
  // 6 events: role, a, b, c, finish, [DONE]: five gaps of 40 ms
  expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  expect(slow.at(-1)).toMatchObject({ choices: [{ finish_reason: 'stop' }] });
  const res = await post('/v1/chat/completions', { model: 'm', stream: true, messages: [] });
  const body = await res.text().catch((e: unknown) => e);
  expect(body).toBeInstanceOf(TypeError);
});

test('Anthropic streaming carries a signed thinking block', async () => {
  server.script([{ thinking: { text: 'plan', signature: 'sig-1' }, text: 'done' }]);
  const events = await sseEvents(await post('/v1/messages', { model: 'm', stream: true, messages: [] }));
  expect(events.slice(1, 5)).toEqual([
    { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'plan' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig-1' } },
    { type: 'content_block_stop', index: 0 },
  ]);
});

test('Anthropic streaming follows the message event sequence', async () => {
  server.script([{ text: 'hi', toolCalls: [{ name: 'shell', arguments: { c: 1 } }] }]);
  const events = await sseEvents(await post('/v1/messages', { model: 'm', stream: true, messages: [] }));
  expect(events.map((e) => e.type)).toEqual([
    'message_start',
    'content_block_start',
    'content_block_delta',
    'content_block_stop',
    'content_block_start',
    'content_block_delta',
    'content_block_stop',
    'message_delta',
    'message_stop',
  ]);
});

test('routes by model, then the responder, and records every request', async () => {
  server.script([{ text: 'default' }]);
  server.script([{ text: 'for b' }], { model: 'b' });
  const b = (await (await post('/v1/chat/completions', { model: 'b', messages: [] })).json()) as {
    choices: { message: { content: string } }[];
  };
  const a = (await (await post('/v1/messages', { model: 'a', messages: [] })).json()) as {
    content: { text: string }[];
  };
  expect(b.choices[0]!.message.content).toBe('for b');
  expect(a.content[0]!.text).toBe('default');
  server.respond((req) => ({ text: `echo ${req.body.model}` }));
  const c = (await (await post('/v1/messages', { model: 'c', messages: [] })).json()) as {
    content: { text: string }[];
  };
  expect(c.content[0]!.text).toBe('echo c');
  expect(server.requests.map((r) => [r.api, r.path, r.body.model])).toEqual([
    ['openai', '/v1/chat/completions', 'b'],
    ['anthropic', '/v1/messages', 'a'],
    ['anthropic', '/v1/messages', 'c'],
  ]);
});

test('an exhausted script answers a visible 500; unknown paths 404', async () => {
  const res = await post('/v1/chat/completions', { model: 'x', messages: [] });
  expect(res.status).toBe(500);
  expect(await res.text()).toContain('fake model server: no scripted turn for model x');
  expect((await post('/v1/embeddings', {})).status).toBe(404);
});
