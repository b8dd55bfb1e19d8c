// Chain-level tool protocol (delegate.md §9.6): mixed chains, strict parsing, text fallbacks.
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import type { ProviderEntry } from '../../../src/config/types.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import {
  createProviderChain,
  type ModelRequest,
  StrictMixedChainError,
} from '../../../src/providers/index.ts';
import { systemPromptOf } from '../../fakes/model-requests.ts';
import { type FakeModelServer, startFakeModelServer } from '../../fakes/model-server.ts';
import { fakeProviderEntry, fastReliability, providerMap } from '../../helpers/providers.ts';

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const TOOLS = [{ name: 'shell', description: 'Run a command.', parameters: { type: 'object' } }];
const TOOL_CALL_TEXT =
  'Running it.\n<tool_call>{"name": "shell", "arguments": {"command": "ls"}}</tool_call>';

const chainOf = (entries: ProviderEntry[]) =>
  createProviderChain({
    ref: entries[0]!.ref,
    agentAlias: 'tester',
    providers: providerMap(...entries),
    reliability: fastReliability({ provider_retries: 0 }),
    env: {},
    logger: createSilentLogger(),
  });
const request = (over: Partial<ModelRequest> = {}): ModelRequest => ({
  system: 'sys',
  messages: [{ role: 'user', content: 'list files' }],
  tools: TOOLS,
  strictToolParsing: false,
  ...over,
});
const signal = () => new AbortController().signal;
const mixed = () => [
  fakeProviderEntry(server, 'custom.native', { fallback: ['anthropic.plain'] }),
  fakeProviderEntry(server, 'anthropic.plain', { native_tools: false }),
];

test('strict parsing on a mixed chain fails before any request, with the spec text', async () => {
  const chain = chainOf(mixed());
  expect(chain.toolProtocol).toBe('mixed');
  const err = await chain.complete(request({ strictToolParsing: true }), signal()).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(StrictMixedChainError);
  expect((err as Error).message).toBe(
    'Strict tool parsing cannot run a fallback chain that mixes native-tool and text-only candidates. Configure every reachable candidate to use the same tool protocol, or set strict_tool_parsing to false.',
  );
  expect(server.requests).toHaveLength(0);
});

test('strict parsing on a mixed chain without tools runs', async () => {
  server.script([{ text: 'plain answer' }]);
  const r = await chainOf(mixed()).complete(request({ strictToolParsing: true, tools: [] }), signal());
  expect(r.text).toBe('plain answer');
});

test('a mixed chain without strict parsing uses the text protocol on every candidate', async () => {
  server.script([{ status: 500 }, { text: TOOL_CALL_TEXT }]);
  const r = await chainOf(mixed()).complete(request(), signal());
  expect(r.fallbackUsed).toBe(true);
  expect(r.toolCalls).toEqual([{ id: expect.any(String), name: 'shell', arguments: { command: 'ls' } }]);
  expect(r.text).toBe('Running it.');
  for (const sent of server.requests) {
    expect(sent.body.tools).toBeUndefined();
    expect(systemPromptOf(sent)).toContain('## Tool Use Protocol');
  }
});

test('strict parsing with only text candidates: no tools section, <tool_call> stays text', async () => {
  server.script([{ text: TOOL_CALL_TEXT }]);
  const chain = chainOf([fakeProviderEntry(server, 'ollama.plain', { native_tools: false })]);
  expect(chain.toolProtocol).toBe('text');
  const r = await chain.complete(request({ strictToolParsing: true }), signal());
  expect(r.toolCalls).toEqual([]);
  expect(r.text).toBe(TOOL_CALL_TEXT);
  const sent = server.requests[0]!;
  expect(sent.body.tools).toBeUndefined();
  expect(systemPromptOf(sent)).toBe('sys');
});

test('text protocol: invalid JSON in a block is a call with the raw string; think blocks are ignored', async () => {
  server.script([
    {
      text: '<think>maybe <tool_call>{"name": "rm"}</tool_call></think>Trying.\n<tool_call>\n{"name": "shell", "arguments": {oops}\n</tool_call>',
    },
  ]);
  const r = await chainOf([fakeProviderEntry(server, 'custom.plain', { native_tools: false })]).complete(
    request(),
    signal(),
  );
  expect(r.toolCalls).toEqual([
    { id: expect.any(String), name: 'shell', arguments: '{"name": "shell", "arguments": {oops}' },
  ]);
  expect(r.text).toBe('Trying.');
});

test('a native chain sends tools natively and leaves <tool_call> text alone', async () => {
  server.script([{ text: TOOL_CALL_TEXT }]);
  const r = await chainOf([fakeProviderEntry(server, 'custom.native')]).complete(request(), signal());
  expect(r.toolCalls).toEqual([]);
  expect(r.text).toBe(TOOL_CALL_TEXT);
  expect(systemPromptOf(server.requests[0]!)).toBe('sys');
});
