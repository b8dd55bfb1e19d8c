// Fallback-chain behaviour beyond the per-type contract: candidates, construction errors, timing, abort.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { ProviderEntry, ReliabilityConfig } from '../../../src/config/types.ts';
import { RunAbortedError } from '../../../src/core/errors.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import {
  createProviderChain,
  type ModelRequest,
  ProviderChainError,
  providerCreateError,
} from '../../../src/providers/index.ts';
import { type FakeModelServer, startFakeModelServer } from '../../fakes/model-server.ts';
import { fakeProviderEntry, fastReliability, providerEntry, providerMap } from '../../helpers/providers.ts';

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const entry = (ref: string, over: Partial<ProviderEntry> = {}) => fakeProviderEntry(server, ref, over);
const chainOf = (
  entries: ProviderEntry[],
  reliability: Partial<ReliabilityConfig> = {},
  temperature?: number,
) =>
  createProviderChain({
    ref: entries[0]!.ref,
    agentAlias: 'tester',
    providers: providerMap(...entries),
    reliability: fastReliability({ provider_retries: 0, ...reliability }),
    env: {},
    logger: createSilentLogger(),
    temperature,
  });
const request = (over: Partial<ModelRequest> = {}): ModelRequest => ({
  system: 'sys',
  messages: [{ role: 'user', content: 'hello' }],
  tools: [],
  strictToolParsing: false,
  ...over,
});
const signal = () => new AbortController().signal;
const modelsSent = () => server.requests.map((r) => r.body.model);

describe('construction', () => {
  const build = (ref: string, entries: ProviderEntry[]) => () =>
    createProviderChain({
      ref,
      agentAlias: 'tester',
      providers: providerMap(...entries),
      reliability: fastReliability(),
      env: {},
      logger: createSilentLogger(),
    });

  test('unknown ref and unsupported type give the spec texts', () => {
    expect(build('custom.nope', [])).toThrow(new Error('no provider configured under "custom.nope"'));
    expect(build('gemini.main', [providerEntry('gemini.main')])).toThrow(
      new Error('unsupported provider type "gemini"'),
    );
  });

  test('providerCreateError wraps a construction error as the caller shows it', () => {
    let caught: unknown;
    try {
      build('gemini.main', [providerEntry('gemini.main')])();
    } catch (err) {
      caught = err;
    }
    expect(providerCreateError('gemini', 'writer', caught).message).toBe(
      `Failed to create model_provider 'gemini' for agent 'writer': unsupported provider type "gemini"`,
    );
  });

  test('a missing model or a custom entry without uri is a clear error', () => {
    expect(build('custom.main', [entry('custom.main', { model: undefined })])).toThrow(
      'provider "custom.main" has no model configured',
    );
    expect(build('custom.main', [providerEntry('custom.main')])).toThrow('needs a uri');
  });
});

describe('candidates', () => {
  test('model, fallback_models, then each fallback alias; nested fallback not followed; unknown skipped', async () => {
    server.respond((req) => (req.body.model === 'last-model' ? { text: 'served' } : { status: 500 }));
    const entries = [
      entry('custom.main', {
        model: 'm1',
        fallback_models: ['m2'],
        fallback: ['custom.gone', 'ollama.second'],
      }),
      entry('ollama.second', { model: 'm3', fallback_models: ['last-model'], fallback: ['custom.third'] }),
      entry('custom.third', { model: 'never-model' }),
    ];
    const r = await chainOf(entries).complete(request(), signal());
    expect(modelsSent()).toEqual(['m1', 'm2', 'm3', 'last-model']);
    expect(r.served).toEqual({ provider: 'ollama.second', providerType: 'ollama', model: 'last-model' });
    expect(r.requested).toEqual({ provider: 'custom.main', providerType: 'custom', model: 'm1' });
  });

  test('a later candidate with the same labels still counts as a fallback', async () => {
    server.script([{ status: 500 }, { text: 'second try of same labels' }]);
    const r = await chainOf([entry('custom.main', { model: 'same', fallback_models: ['same'] })]).complete(
      request(),
      signal(),
    );
    expect(r.served).toEqual(r.requested);
    expect(r.fallbackUsed).toBe(true);
  });

  test('each candidate uses its own uri and credential', async () => {
    const other = await startFakeModelServer();
    try {
      server.script([{ status: 503 }]);
      other.script([{ text: 'other' }]);
      const entries = [
        entry('custom.main', { api_key: 'key-main', fallback: ['custom.other'] }),
        fakeProviderEntry(other, 'custom.other', { api_key: 'key-other' }),
      ];
      await chainOf(entries).complete(request(), signal());
      expect(server.requests[0]!.headers.authorization).toBe('Bearer key-main');
      expect(other.requests[0]!.headers.authorization).toBe('Bearer key-other');
    } finally {
      await other.close();
    }
  });

  test('modelOverride replaces the first candidate model; caller temperature overrides the entry', async () => {
    server.script([{ text: 'ok' }]);
    const r = await chainOf([entry('custom.main', { temperature: 0.9 })], {}, 0.2).complete(
      request({ modelOverride: 'cron-model' }),
      signal(),
    );
    expect(server.requests[0]!.body).toMatchObject({ model: 'cron-model', temperature: 0.2 });
    expect(r.requested.model).toBe('cron-model');
  });

  test('unparseable native tool arguments come back as the raw string', async () => {
    server.script([{ toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path": "a.txt"' }] }]);
    const tools = [{ name: 'read_file', description: 'd', parameters: { type: 'object' } }];
    const r = await chainOf([entry('custom.main')]).complete(request({ tools }), signal());
    expect(r.toolCalls).toEqual([{ id: 'c1', name: 'read_file', arguments: '{"path": "a.txt"' }]);
  });
});

describe('retries and failures', () => {
  test('backoff doubles between retries of one candidate', async () => {
    server.script([{ status: 500 }, { status: 500 }, { text: 'ok' }]);
    const seen: number[] = [];
    server.respond(() => {
      seen.push(performance.now());
      return undefined;
    });
    await chainOf([entry('custom.main')], { provider_retries: 2, provider_backoff_ms: 150 }).complete(
      request(),
      signal(),
    );
    expect(seen).toHaveLength(3);
    expect(seen[1]! - seen[0]!).toBeGreaterThanOrEqual(140);
    expect(seen[2]! - seen[1]!).toBeGreaterThanOrEqual(290);
  });

  test('timeout_secs ends a slow request as a timeout failure', async () => {
    server.script([{ delayMs: 10_000, text: 'late' }]);
    const err = await chainOf([entry('custom.main', { timeout_secs: 1 })])
      .complete(request(), signal())
      .catch((e) => e);
    expect(err).toBeInstanceOf(ProviderChainError);
    expect((err as Error).message).toContain('event 1 (retry 1/1): timeout; kind=timeout; phase=request;');
  });

  test("a request's defaultTimeoutSecs bounds a candidate without timeout_secs, not one with its own", async () => {
    server.script([{ delayMs: 10_000, text: 'late' }]);
    const err = await chainOf([entry('custom.main')])
      .complete(request({ defaultTimeoutSecs: 1 }), signal())
      .catch((e) => e);
    expect((err as Error).message).toContain('event 1 (retry 1/1): timeout; kind=timeout; phase=request;');
    // The entry's own (longer) limit wins over the request's default: a 1.5 s answer still arrives.
    server.script([{ delayMs: 1500, text: 'slow but in time' }]);
    const res = await chainOf([entry('custom.main', { timeout_secs: 30 })]).complete(
      request({ defaultTimeoutSecs: 1 }),
      signal(),
    );
    expect(res.text).toBe('slow but in time');
  });

  test('an unreachable endpoint is a retryable network failure', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const e = providerEntry('custom.down', { uri: `http://127.0.0.1:${port}/v1` });
    const err = await chainOf([e], { provider_retries: 1 })
      .complete(request(), signal())
      .catch((x) => x);
    expect((err as Error).message).toMatch(
      /^All model providers\/models failed after 2 failure event\(s\)\. Events:\n/,
    );
    expect((err as Error).message).toContain('event 2 (retry 2/2): retryable; kind=network; phase=connect;');
    expect((err as Error).message).not.toContain(String(port));
  });

  test('the summary is capped at 2048 bytes with the omitted-count line', async () => {
    server.respond(() => ({ status: 500 }));
    const err = await chainOf([entry('custom.main')], { provider_retries: 39, provider_backoff_ms: 0 })
      .complete(request(), signal())
      .catch((e: unknown) => e);
    const lines = (err as Error).message.split('\n');
    expect(Buffer.byteLength((err as Error).message)).toBeLessThanOrEqual(2048);
    expect(lines[0]).toBe('All model providers/models failed after 40 failure event(s). Events:');
    const kept = lines.length - 2;
    expect(kept).toBeGreaterThan(5);
    lines.slice(1, -1).forEach((line, i) => {
      expect(line.startsWith(`event ${i + 1} (retry ${i + 1}/40): retryable; kind=http_500;`)).toBe(true);
    });
    expect(lines.at(-1)).toBe(`[${40 - kept} additional failure event(s) omitted]`);
  });

  test('aborting during backoff stops the chain with the abort reason', async () => {
    server.respond(() => ({ status: 500 }));
    const controller = new AbortController();
    const pending = chainOf([entry('custom.main')], {
      provider_retries: 3,
      provider_backoff_ms: 30_000,
    }).complete(request(), controller.signal);
    await server.waitForRequests(1);
    const reason = new RunAbortedError();
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(server.requests).toHaveLength(1);
  });

  test('an already aborted signal sends nothing', async () => {
    const controller = new AbortController();
    const reason = new RunAbortedError();
    controller.abort(reason);
    await expect(chainOf([entry('custom.main')]).complete(request(), controller.signal)).rejects.toBe(reason);
    expect(server.requests).toHaveLength(0);
  });
});
