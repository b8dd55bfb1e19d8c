// Images of a user message on the wire of every provider type (media.md §1, §3): image parts for a model that
// accepts images (explicit `vision`, else baton's table), none for one that does not; native and text tool
// protocols alike; and a fallback without vision gets the text alone.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { ProviderEntry } from '../../../src/config/types.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createProviderChain, type ModelRequest } from '../../../src/providers/index.ts';
import { lastUserPartsOf } from '../../fakes/model-requests.ts';
import { type FakeModelServer, startFakeModelServer } from '../../fakes/model-server.ts';
import { fakeProviderEntry, fastReliability, providerMap } from '../../helpers/providers.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const LINE = '[attachment: image p.png, 70 B, saved as inbox/c/e-p.png]';
const TEXT_PART = { type: 'text', text: `look\n${LINE}` };
const IMAGE_PART = { type: 'image', mediaType: 'image/png', base64: PNG.toString('base64') };

const TYPES = ['openai', 'custom', 'ollama', 'openrouter', 'anthropic'] as const;

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const request = (): ModelRequest => ({
  system: 'sys',
  messages: [
    { role: 'user', content: 'earlier' },
    { role: 'assistant', content: 'ok' },
    {
      role: 'user',
      content: `look\n${LINE}`,
      images: [{ mediaType: 'image/png', data: new Uint8Array(PNG) }],
    },
  ],
  tools: [{ name: 'file_read', description: 'read', parameters: { type: 'object', properties: {} } }],
  strictToolParsing: false,
});

const chainOf = (...entries: ProviderEntry[]) =>
  createProviderChain({
    ref: entries[0]!.ref,
    agentAlias: 'tester',
    providers: providerMap(...entries),
    reliability: fastReliability({ provider_retries: 0 }),
    env: {},
    logger: createSilentLogger(),
  });

describe.each(TYPES)('image parts: %s', (type) => {
  const entry = (over: Partial<ProviderEntry>) => fakeProviderEntry(server, `${type}.main`, over);

  test.each([
    { tools: 'native', native: true },
    { tools: 'text', native: false },
  ])('vision = true, $tools tools: the text and the image', async ({ native }) => {
    server.script([{ text: 'a dot' }]);
    await chainOf(entry({ model: 'm', vision: true, native_tools: native })).complete(
      request(),
      new AbortController().signal,
    );
    expect(lastUserPartsOf(server.requests[0]!)).toEqual([TEXT_PART, IMAGE_PART]);
  });

  test('vision = false wins over the table: the text alone', async () => {
    server.script([{ text: 'no eyes' }]);
    await chainOf(entry({ model: 'gpt-4o', vision: false })).complete(
      request(),
      new AbortController().signal,
    );
    expect(lastUserPartsOf(server.requests[0]!)).toEqual([TEXT_PART]);
  });

  test('no `vision`: baton table decides by the model id', async () => {
    server.script([{ text: 'seen' }, { text: 'unseen' }]);
    const model =
      type === 'anthropic' ? 'claude-sonnet-4-5' : type === 'ollama' ? 'llava:13b' : 'openai/gpt-4o';
    await chainOf(entry({ model })).complete(request(), new AbortController().signal);
    await chainOf(entry({ model: 'some-text-model' })).complete(request(), new AbortController().signal);
    expect(lastUserPartsOf(server.requests[0]!)).toEqual([TEXT_PART, IMAGE_PART]);
    expect(lastUserPartsOf(server.requests[1]!)).toEqual([TEXT_PART]);
  });
});

test('a fallback model without vision gets the request without the image', async () => {
  server.script([{ status: 500 }], { model: 'eyes' });
  server.script([{ text: 'from the fallback' }], { model: 'blind' });
  const main = fakeProviderEntry(server, 'custom.main', {
    model: 'eyes',
    vision: true,
    fallback: ['custom.backup'],
  });
  const backup = fakeProviderEntry(server, 'custom.backup', { model: 'blind' });
  const r = await chainOf(main, backup).complete(request(), new AbortController().signal);
  expect(r.text).toBe('from the fallback');
  expect(server.requests.map((q) => lastUserPartsOf(q))).toEqual([[TEXT_PART, IMAGE_PART], [TEXT_PART]]);
});
