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

test('OpenAI streaming carries text, a tool call and usage', async () => {
  server.script([
    {
      text: 'hi',
      toolCalls: [{ name: 'shell', arguments: { c: 1 } }],
      usage: { inputTokens: 3, outputTokens: 4 },
    },
  ]);
  const res = await post('/v1/chat/completions', { model: 'm', stream: true, messages: [] });
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  const events = await sseEvents(res);
  const deltas = events.map((e) => JSON.stringify(e));
  expect(deltas.some((d) => d.includes('"content":"hi"'))).toBe(true);
  expect(deltas.some((d) => d.includes('"name":"shell"') && d.includes('"arguments":"{\\"c\\":1}"'))).toBe(
    true,
  );
  expect(events.at(-1)).toMatchObject({
    choices: [{ finish_reason: 'tool_calls' }],
    usage: { prompt_tokens: 3 },
  });
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
