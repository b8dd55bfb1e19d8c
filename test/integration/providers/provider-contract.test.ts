// One provider contract suite, run against every provider type pointed at the fake model server.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { ProviderEntry } from '../../../src/config/types.ts';
import { RunAbortedError } from '../../../src/core/errors.ts';
import { createSilentLogger, type Logger } from '../../../src/core/logger.ts';
import { createProviderChain, type ModelRequest, ProviderChainError } from '../../../src/providers/index.ts';
import { systemPromptOf, toolNamesOf, toolResultsOf, transcriptOf } from '../../fakes/model-requests.ts';
import { type FakeModelServer, startFakeModelServer } from '../../fakes/model-server.ts';
import { capturingLogger, fakeProviderEntry, fastReliability, providerMap } from '../../helpers/providers.ts';

const READ_FILE = {
  name: 'read_file',
  description: 'Read a file from the workspace.',
  parameters: {
    type: 'object',
    properties: { path: { type: 'string', description: 'workspace-relative path' } },
    required: ['path'],
  },
};

const IMPLEMENTATIONS = [
  {
    type: 'openai',
    path: '/v1/chat/completions',
    auth: 'authorization',
    bearer: true,
    envKey: 'OPENAI_API_KEY',
  },
  { type: 'custom', path: '/v1/chat/completions', auth: 'authorization', bearer: true, envKey: undefined },
  { type: 'ollama', path: '/v1/chat/completions', auth: 'authorization', bearer: true, envKey: undefined },
  {
    type: 'openrouter',
    path: '/v1/chat/completions',
    auth: 'authorization',
    bearer: true,
    envKey: 'OPENROUTER_API_KEY',
  },
  { type: 'anthropic', path: '/v1/messages', auth: 'x-api-key', bearer: false, envKey: 'ANTHROPIC_API_KEY' },
] as const;

describe.each(IMPLEMENTATIONS)('provider contract: $type', ({ type, path, auth, bearer, envKey }) => {
  let server: FakeModelServer;
  beforeAll(async () => {
    server = await startFakeModelServer();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  const main = `${type}.main`;
  const backup = `${type}.backup`;
  const entry = (ref: string, over: Partial<ProviderEntry> = {}): ProviderEntry =>
    fakeProviderEntry(server, ref, over);
  const chainOf = (
    entries: ProviderEntry[],
    opts: { retries?: number; env?: Record<string, string>; logger?: Logger } = {},
  ) =>
    createProviderChain({
      ref: entries[0]!.ref,
      agentAlias: 'tester',
      providers: providerMap(...entries),
      reliability: fastReliability({ provider_retries: opts.retries ?? 1 }),
      env: opts.env ?? {},
      logger: opts.logger ?? createSilentLogger(),
    });
  const request = (over: Partial<ModelRequest> = {}): ModelRequest => ({
    system: 'You are a test agent.',
    messages: [{ role: 'user', content: 'hello' }],
    tools: [],
    strictToolParsing: false,
    ...over,
  });
  const signal = () => new AbortController().signal;
  const modelsSent = () => server.requests.map((r) => r.body.model);
  const authValue = (key: string) => (bearer ? `Bearer ${key}` : key);

  test('answers with text, usage and attribution', async () => {
    server.script([{ text: 'Hello there', usage: { inputTokens: 42, outputTokens: 5 } }]);
    const r = await chainOf([entry(main, { model: 'primary-model' })]).complete(request(), signal());
    const label = { provider: main, providerType: type, model: 'primary-model' };
    expect(r).toMatchObject({
      text: 'Hello there',
      toolCalls: [],
      usage: { inputTokens: 42, outputTokens: 5 },
    });
    expect(r).toMatchObject({ requested: label, served: label, fallbackUsed: false });
    const sent = server.requests[0]!;
    expect(sent.path).toBe(path);
    expect(sent.body.model).toBe('primary-model');
    expect(systemPromptOf(sent)).toBe('You are a test agent.');
    expect(transcriptOf(sent)).toBe('user: hello');
  });

  test('native tool call round trip: tools offered, call returned, result carried', async () => {
    server.script([
      { toolCalls: [{ id: 'call_1', name: 'read_file', arguments: { path: 'notes.txt' } }] },
      { text: 'The file says hi.' },
    ]);
    const chain = chainOf([entry(main)]);
    expect(chain.toolProtocol).toBe('native');
    const first = await chain.complete(request({ tools: [READ_FILE] }), signal());
    expect(first.toolCalls).toEqual([{ id: 'call_1', name: 'read_file', arguments: { path: 'notes.txt' } }]);
    expect(toolNamesOf(server.requests[0]!)).toEqual(['read_file']);
    expect(JSON.stringify(server.requests[0]!.body.tools)).toContain('workspace-relative path');

    const second = await chain.complete(
      request({
        tools: [READ_FILE],
        messages: [
          { role: 'user', content: 'hello' },
          { role: 'assistant', content: '', toolCalls: first.toolCalls },
          { role: 'tool', toolCallId: 'call_1', toolName: 'read_file', content: 'hi from notes' },
        ],
      }),
      signal(),
    );
    expect(second.text).toBe('The file says hi.');
    expect(toolResultsOf(server.requests[1]!)).toEqual([{ toolCallId: 'call_1', content: 'hi from notes' }]);
  });

  test('sends temperature, max_tokens, extra headers and the api key', async () => {
    server.script([{ text: 'ok' }]);
    const e = entry(main, {
      temperature: 0.3,
      max_tokens: 321,
      extra_headers: { 'X-Team': 'qa' },
      api_key: 'sk-test-123',
    });
    await chainOf([e]).complete(request(), signal());
    const sent = server.requests[0]!;
    expect(sent.body.temperature).toBe(0.3);
    expect(sent.body.max_tokens).toBe(321);
    expect(sent.headers['x-team']).toBe('qa');
    expect(sent.headers[auth]).toBe(authValue('sk-test-123'));
  });

  test('default credential from env; requires_openai_auth never inherits it', async () => {
    server.script([{ text: 'a' }, { text: 'b' }]);
    const env = {
      OPENAI_API_KEY: 'env-openai',
      ANTHROPIC_API_KEY: 'env-anthropic',
      OPENROUTER_API_KEY: 'env-or',
    };
    await chainOf([entry(main)], { env }).complete(request(), signal());
    await chainOf([entry(main, { requires_openai_auth: true })], { env }).complete(request(), signal());
    const [plain, oauth] = server.requests;
    expect(plain!.headers[auth]).toBe(envKey === undefined ? undefined : authValue(env[envKey]));
    expect(oauth!.headers[auth]).toBeUndefined();
  });

  test('HTTP 500 then success is a retry on the same candidate, not a fallback', async () => {
    server.script([{ status: 500, body: 'upstream exploded' }, { text: 'recovered' }]);
    const r = await chainOf([entry(main), entry(backup)], { retries: 1 }).complete(request(), signal());
    expect(r.text).toBe('recovered');
    expect(r.fallbackUsed).toBe(false);
    expect(r.served).toEqual(r.requested);
    expect(server.requests).toHaveLength(2);
  });

  test('a failing primary falls back, with requested/served attribution', async () => {
    server.script([{ status: 500 }, { status: 503 }], { model: 'primary-model' });
    server.script([{ text: 'from backup' }], { model: 'backup-model' });
    const entries = [
      entry(main, { model: 'primary-model', fallback: [backup] }),
      entry(backup, { model: 'backup-model' }),
    ];
    const r = await chainOf(entries, { retries: 1 }).complete(request(), signal());
    expect(r.text).toBe('from backup');
    expect(r.fallbackUsed).toBe(true);
    expect(r.requested).toEqual({ provider: main, providerType: type, model: 'primary-model' });
    expect(r.served).toEqual({ provider: backup, providerType: type, model: 'backup-model' });
    expect(modelsSent()).toEqual(['primary-model', 'primary-model', 'backup-model']);
  });

  test('401 is not retried: the next candidate is tried at once', async () => {
    server.script([{ status: 401 }], { model: 'primary-model' });
    server.script([{ text: 'from backup' }], { model: 'backup-model' });
    const entries = [
      entry(main, { model: 'primary-model', fallback: [backup] }),
      entry(backup, { model: 'backup-model' }),
    ];
    const r = await chainOf(entries, { retries: 2 }).complete(request(), signal());
    expect(r.served.model).toBe('backup-model');
    expect(modelsSent()).toEqual(['primary-model', 'backup-model']);
  });

  test('every candidate failing gives the safe summary, details only in the log', async () => {
    const body = 'SECRET-BODY-TEXT echoing sk-secret-xyz';
    server.script([
      { status: 500, body },
      { status: 500, body },
      { status: 429, body },
      { status: 429, body },
    ]);
    const { logger, lines } = capturingLogger();
    const entries = [
      entry(main, { model: 'primary-model', fallback: [backup], api_key: 'sk-secret-xyz' }),
      entry(backup, { model: 'backup-model', api_key: 'sk-secret-xyz' }),
    ];
    const err = await chainOf(entries, { retries: 1, logger })
      .complete(request(), signal())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderChainError);
    const server500 =
      'kind=http_500; phase=response; hint=provider server error; retry later or switch provider';
    const limited = 'kind=http_429; phase=response; hint=wait or raise the provider rate limit';
    expect((err as Error).message).toBe(
      [
        'All model providers/models failed after 4 failure event(s). Events:',
        `event 1 (retry 1/2): retryable; ${server500}`,
        `event 2 (retry 2/2): retryable; ${server500}`,
        `event 3 (retry 1/2): rate_limited; ${limited}`,
        `event 4 (retry 2/2): rate_limited; ${limited}`,
      ].join('\n'),
    );
    for (const leak of [
      server.url,
      '127.0.0.1',
      'primary-model',
      'backup-model',
      main,
      backup,
      'SECRET',
      'sk-secret',
    ]) {
      expect((err as Error).message).not.toContain(leak);
    }
    const log = lines.join('');
    expect(log).toContain('SECRET-BODY-TEXT');
    expect(log).toContain(`${server.url}${path}`);
    expect(log).toContain('"status":500');
    expect(log).not.toContain('sk-secret-xyz');
  });

  test('a garbage reply is a clear invalid_request failure, not retried and not a crash', async () => {
    server.script([{ raw: '<html>Bad Gateway</html> not json' }, { raw: '{"unexpected": true}' }]);
    const chain = chainOf([entry(main)], { retries: 2 });
    const expected = [
      'All model providers/models failed after 1 failure event(s). Events:',
      'event 1 (retry 1/3): invalid_request; kind=malformed_response; phase=response; hint=provider returned a response baton could not parse',
    ].join('\n');
    await expect(chain.complete(request(), signal())).rejects.toThrow(expected);
    await expect(chain.complete(request(), signal())).rejects.toThrow(expected);
    expect(server.requests).toHaveLength(2);
  });

  test('aborting ends an in-flight request at once with the abort reason', async () => {
    server.script([{ delayMs: 20_000, text: 'too late' }]);
    const controller = new AbortController();
    const pending = chainOf([entry(main)], { retries: 2 }).complete(request(), controller.signal);
    await server.waitForRequests(1);
    const reason = new RunAbortedError();
    const started = Date.now();
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(server.requests).toHaveLength(1);
  });

  test('text/XML protocol when the candidate has native_tools = false', async () => {
    server.script([
      {
        text: 'Let me look.\n<tool_call>\n {"name": "read_file", "arguments": {"path": "notes.txt"}} \n</tool_call>',
      },
      { text: 'It says hi.' },
    ]);
    const chain = chainOf([entry(main, { native_tools: false })]);
    expect(chain.toolProtocol).toBe('text');
    const first = await chain.complete(request({ tools: [READ_FILE] }), signal());
    expect(first.text).toBe('Let me look.');
    expect(first.toolCalls).toEqual([
      { id: expect.any(String), name: 'read_file', arguments: { path: 'notes.txt' } },
    ]);
    const sent = server.requests[0]!;
    expect(sent.body.tools).toBeUndefined();
    const system = systemPromptOf(sent);
    expect(system.startsWith('You are a test agent.\n\n## Tool Use Protocol')).toBe(true);
    expect(system).toContain('<tool_call>');
    expect(system).toContain('### read_file');
    expect(system).toContain('workspace-relative path');

    await chain.complete(
      request({
        tools: [READ_FILE],
        messages: [
          { role: 'user', content: 'hello' },
          { role: 'assistant', content: 'Let me look.', toolCalls: first.toolCalls },
          {
            role: 'tool',
            toolCallId: first.toolCalls[0]!.id,
            toolName: 'read_file',
            content: 'hi from notes',
          },
        ],
      }),
      signal(),
    );
    const second = server.requests[1]!;
    expect(second.body.tools).toBeUndefined();
    expect(toolResultsOf(second)).toEqual([]);
    expect(transcriptOf(second)).toContain('assistant: Let me look.\n<tool_call>\n{"name":"read_file"');
    expect(transcriptOf(second)).toContain(
      'user: <tool_result name="read_file">\nhi from notes\n</tool_result>',
    );
  });
});
