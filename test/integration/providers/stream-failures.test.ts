// Failures that only a streamed reply can have, classified as the same reply failed before streaming.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { ProviderEntry } from '../../../src/config/types.ts';
import { RunAbortedError } from '../../../src/core/errors.ts';
import { createSilentLogger, type Logger } from '../../../src/core/logger.ts';
import { createProviderChain, type ModelRequest, ProviderChainError } from '../../../src/providers/index.ts';
import { type FakeModelServer, startFakeModelServer } from '../../fakes/model-server.ts';
import { capturingLogger, fakeProviderEntry, fastReliability, providerMap } from '../../helpers/providers.ts';

const MALFORMED =
  'invalid_request; kind=malformed_response; phase=response; hint=provider returned a response baton could not parse';

describe.each(['openai', 'custom', 'ollama', 'anthropic'] as const)('streamed failures: %s', (type) => {
  let server: FakeModelServer;
  beforeAll(async () => {
    server = await startFakeModelServer();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  const chainOf = (over: Partial<ProviderEntry> = {}, logger: Logger = createSilentLogger()) => {
    const entry = fakeProviderEntry(server, `${type}.main`, over);
    return createProviderChain({
      ref: entry.ref,
      agentAlias: 'tester',
      providers: providerMap(entry),
      reliability: fastReliability({ provider_retries: 2 }),
      env: {},
      logger,
    });
  };
  const request: ModelRequest = {
    system: 'You are a test agent.',
    messages: [{ role: 'user', content: 'hello' }],
    tools: [],
    strictToolParsing: false,
  };
  const signal = () => new AbortController().signal;

  test('a connection dropped mid-answer fails like a garbage reply: malformed, not retried', async () => {
    server.script([{ textChunks: ['SECRET-PARTIAL ', 'answer'], cutAfterChunks: 1 }]);
    const err = await chainOf()
      .complete(request, signal())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderChainError);
    expect((err as Error).message).toBe(
      [
        'All model providers/models failed after 1 failure event(s). Events:',
        `event 1 (retry 1/3): ${MALFORMED}`,
      ].join('\n'),
    );
    expect(server.requests).toHaveLength(1);
  });

  test('aborting mid-answer ends the stream at once with the abort reason and closes the connection', async () => {
    // ten chunks 300 ms apart: the abort lands while most of the answer is still to come
    const rest = Array.from({ length: 9 }, (_, i) => ` chunk${i}`);
    server.script([{ textChunks: ['first', ...rest], chunkDelayMs: 300 }]);
    const controller = new AbortController();
    let shown = '';
    const pending = chainOf().complete(
      {
        ...request,
        onText: (t) => {
          shown = t;
        },
      },
      controller.signal,
    );
    await expect.poll(() => shown, { timeout: 5000 }).toBe('first');
    const reason = new RunAbortedError();
    const started = Date.now();
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(2000);
    await expect.poll(() => server.requests[0]?.clientClosed).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  test('an overloaded error event after a 200 is a retryable HTTP 529, its text only in the log', async () => {
    const streamError = { type: 'overloaded_error', message: 'SECRET-STREAM-ERROR overloaded' };
    server.script([
      { textChunks: ['par', 'tial'], streamError },
      { textChunks: ['par', 'tial'], streamError },
      { textChunks: ['par', 'tial'], streamError },
    ]);
    const { logger, lines } = capturingLogger();
    const err = await chainOf({}, logger)
      .complete(request, signal())
      .catch((e: unknown) => e);
    const overloaded =
      'kind=http_529; phase=response; hint=provider server error; retry later or switch provider';
    expect((err as Error).message).toBe(
      [
        'All model providers/models failed after 3 failure event(s). Events:',
        `event 1 (retry 1/3): retryable; ${overloaded}`,
        `event 2 (retry 2/3): retryable; ${overloaded}`,
        `event 3 (retry 3/3): retryable; ${overloaded}`,
      ].join('\n'),
    );
    expect(lines.join('')).toContain('SECRET-STREAM-ERROR');
  });

  test('any other error event is a server error: retried, and a retry can succeed', async () => {
    server.script([
      { text: 'partial', streamError: { type: 'server_error', message: 'boom' } },
      { textChunks: ['fine ', 'now'] },
    ]);
    const r = await chainOf().complete(request, signal());
    expect(r.text).toBe('fine now');
    expect(r.fallbackUsed).toBe(false);
    expect(server.requests).toHaveLength(2);
  });
});

test('timeout_secs ends a stream that is still sending as a timeout failure, retried', async () => {
  const server = await startFakeModelServer();
  try {
    const slow = { textChunks: ['a', 'b', 'c'], chunkDelayMs: 700 };
    server.script([slow, slow]);
    const entry = fakeProviderEntry(server, 'openai.main', { timeout_secs: 1 });
    const chain = createProviderChain({
      ref: entry.ref,
      agentAlias: 'tester',
      providers: providerMap(entry),
      reliability: fastReliability({ provider_retries: 1 }),
      env: {},
      logger: createSilentLogger(),
    });
    const request: ModelRequest = {
      system: '',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [],
      strictToolParsing: false,
    };
    const err = await chain.complete(request, new AbortController().signal).catch((e: unknown) => e);
    const timeout =
      'timeout; kind=timeout; phase=request; hint=provider request timed out; retry or switch provider';
    expect((err as Error).message).toBe(
      [
        'All model providers/models failed after 2 failure event(s). Events:',
        `event 1 (retry 1/2): ${timeout}`,
        `event 2 (retry 2/2): ${timeout}`,
      ].join('\n'),
    );
  } finally {
    await server.close();
  }
});
