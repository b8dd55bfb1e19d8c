// ModelRequest.onText: the visible answer as it streams, through real provider code against the fake.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { ProviderEntry } from '../../../src/config/types.ts';
import { createSilentLogger, type Logger } from '../../../src/core/logger.ts';
import { createProviderChain, type ModelRequest, ProviderChainError } from '../../../src/providers/index.ts';
import { type FakeModelServer, startFakeModelServer } from '../../fakes/model-server.ts';
import { capturingLogger, fakeProviderEntry, fastReliability, providerMap } from '../../helpers/providers.ts';

const READ_FILE = {
  name: 'read_file',
  description: 'Read a file.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

function chainOf(entries: ProviderEntry[], opts: { retries?: number; logger?: Logger } = {}) {
  return createProviderChain({
    ref: entries[0]!.ref,
    agentAlias: 'tester',
    providers: providerMap(...entries),
    reliability: fastReliability({ provider_retries: opts.retries ?? 0 }),
    env: {},
    logger: opts.logger ?? createSilentLogger(),
  });
}

/** A request whose onText calls are collected in `seen`. */
function watched(over: Partial<ModelRequest> = {}): { req: ModelRequest; seen: string[] } {
  const seen: string[] = [];
  const req: ModelRequest = {
    system: 'You are a test agent.',
    messages: [{ role: 'user', content: 'hello' }],
    tools: [],
    strictToolParsing: false,
    onText: (t) => seen.push(t),
    ...over,
  };
  return { req, seen };
}

const signal = () => new AbortController().signal;

describe.each(['openai', 'anthropic', 'ollama', 'custom'] as const)('onText: %s', (type) => {
  const entry = (ref = `${type}.main`, over: Partial<ProviderEntry> = {}) =>
    fakeProviderEntry(server, ref, over);

  test('gets the whole text so far as each chunk arrives, before the reply ends', async () => {
    server.script([{ textChunks: ['Hel', 'lo ', 'world'], chunkDelayMs: 60 }]);
    const { req, seen } = watched();
    let firstAt = 0;
    const onText = req.onText!;
    req.onText = (t) => {
      if (firstAt === 0) firstAt = Date.now();
      onText(t);
    };
    const r = await chainOf([entry()]).complete(req, signal());
    expect(r.text).toBe('Hello world');
    // 'Hello ' is shown as 'Hello': trailing space waits for what follows it
    expect(seen).toEqual(['Hel', 'Hello', 'Hello world']);
    expect(Date.now() - firstAt).toBeGreaterThanOrEqual(100);
  });

  test('a think block never shows, not even its opening tag in pieces', async () => {
    server.script([{ textChunks: ['<thi', 'nk>SECRET plan', '</think>', 'Ans', 'wer'] }]);
    const { req, seen } = watched();
    await chainOf([entry()]).complete(req, signal());
    expect(seen).toEqual(['Ans', 'Answer']);
  });

  test('text tool protocol: the <tool_call> block never shows, even split mid-tag', async () => {
    server.script([
      {
        textChunks: [
          'Let me look.',
          '\n<tool_',
          'call>\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n</tool_call>',
          '\nafter the call',
        ],
      },
    ]);
    const { req, seen } = watched({ tools: [READ_FILE] });
    const r = await chainOf([entry(undefined, { native_tools: false })]).complete(req, signal());
    expect(r.toolCalls).toEqual([
      { id: expect.any(String), name: 'read_file', arguments: { path: 'a.txt' } },
    ]);
    expect(seen).toEqual(['Let me look.']);
  });

  test('a fallback after a failed first candidate starts again from ""', async () => {
    server.script([{ textChunks: ['par', 'tial'], cutAfterChunks: 2 }], { model: 'primary-model' });
    server.script([{ textChunks: ['Back', 'up'] }], { model: 'backup-model' });
    const backup = `${type}.backup`;
    const entries = [
      entry(`${type}.main`, { model: 'primary-model', fallback: [backup] }),
      entry(backup, { model: 'backup-model' }),
    ];
    const { req, seen } = watched();
    const r = await chainOf(entries).complete(req, signal());
    expect(r.text).toBe('Backup');
    expect(r.fallbackUsed).toBe(true);
    expect(seen).toEqual(['par', 'partial', '', 'Back', 'Backup']);
  });
});

describe('onText edge cases', () => {
  test('a retry restarts from "" too; an attempt that showed nothing reports no ""', async () => {
    server.script([
      { status: 503 },
      { text: 'partial', streamError: { type: 'server_error', message: 'boom' } },
      { textChunks: ['fine'] },
    ]);
    const { req, seen } = watched();
    const r = await chainOf([fakeProviderEntry(server, 'custom.main')], { retries: 2 }).complete(
      req,
      signal(),
    );
    expect(r.text).toBe('fine');
    expect(seen).toEqual(['partial', '', 'fine']);
  });

  test('Anthropic signed reasoning goes to the reply, never to onText', async () => {
    server.script([{ thinking: { text: 'SECRET reasoning', signature: 'sig-9' }, textChunks: ['Do', 'ne'] }]);
    const { req, seen } = watched();
    const entry = fakeProviderEntry(server, 'anthropic.main');
    const r = await chainOf([entry]).complete(
      { ...req, thinking: { budgetTokens: 1024, effort: 'low', temperatureBoost: 0 } },
      signal(),
    );
    expect(r.reasoning).toEqual([
      { text: 'SECRET reasoning', providerOptions: { anthropic: { signature: 'sig-9' } } },
    ]);
    expect(seen).toEqual(['Do', 'Done']);
  });

  test('a mid-stream failure leaves the shown text, and the error carries none of it', async () => {
    server.script([{ textChunks: ['SECRET-PARTIAL ', 'rest'], cutAfterChunks: 1 }]);
    const { req, seen } = watched();
    const err = await chainOf([fakeProviderEntry(server, 'openai.main')])
      .complete(req, signal())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderChainError);
    expect((err as Error).message).toContain('kind=malformed_response');
    expect((err as Error).message).not.toContain('SECRET');
    expect(seen).toEqual(['SECRET-PARTIAL']);
  });

  test('a listener that throws changes nothing but a log line', async () => {
    server.script([{ textChunks: ['a', 'b'] }]);
    const { logger, lines } = capturingLogger();
    const { req } = watched({
      onText: () => {
        throw new Error('listener bug');
      },
    });
    const r = await chainOf([fakeProviderEntry(server, 'openai.main')], { logger }).complete(req, signal());
    expect(r.text).toBe('ab');
    expect(lines.join('')).toContain('model text listener failed');
  });
});
