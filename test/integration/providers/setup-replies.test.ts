// The default config on a fresh machine, through the runtime and the local channel: no model reachable, or a
// key refused, gives one plain, actionable chat reply and never a provider's error body.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntimeHarness, LOCAL_PEERS, type RuntimeHarness } from '../../helpers/runtime-harness.ts';

const DEFAULT_TOML = readFileSync(new URL('../../../config/baton.toml', import.meta.url), 'utf8');
const OLLAMA_URI = 'http://127.0.0.1:11434';

/**
 * config/baton.toml for the harness: its [redis] and [gateway] give way to the test's, Ollama's uri becomes
 * `localUri`, and `hosted` entries get a uri (the fake model server's `${MODEL_URI}`, which the anthropic entry takes too).
 */
function defaultConfig(localUri: string, hosted: Record<string, string> = {}): string {
  // The harness puts its tables first, so a top-level key would land in its [gateway].
  let text = DEFAULT_TOML.replace(/^schema_version = 3\n/m, '').replace(
    /^\[(redis|gateway)\]\n(?:[^[\n][^\n]*\n|\n)*/gm,
    '',
  );
  expect(text).toContain(OLLAMA_URI);
  text = text.replace(OLLAMA_URI, localUri);
  for (const [ref, uri] of Object.entries(hosted)) {
    const header = `[providers.models.${ref}]\n`;
    expect(text).toContain(header);
    text = text.replace(header, `${header}uri = "${uri}"\n`);
  }
  return `${text}\n${LOCAL_PEERS}`;
}

/**
 * A loopback port nothing listens on: connections to it are refused. Port 1 (tcpmux) is never served here; a
 * port merely free a moment ago could be taken by a test running beside this one.
 */
const CLOSED_URI = 'http://127.0.0.1:1';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('default config with no model reachable', () => {
  it('Ollama refusing connections and no key set: the chat gets exactly the start-Ollama-or-set-a-key text', async () => {
    h = await createRuntimeHarness('setup-unreachable', defaultConfig(CLOSED_URI), { env: {} });
    await h.local.inject({ chat: 'fresh', text: 'hello' });
    const replies = await h.local.waitForReplies(1, { chat: 'fresh', timeoutMs: 15_000 });
    expect(replies.map((r) => r.text)).toEqual([
      '⚠️ No model is reachable. Start Ollama (`ollama serve`, then `ollama pull qwen2.5-coder:7b`) and send your message again, or set OPENAI_API_KEY, ANTHROPIC_API_KEY or OPENROUTER_API_KEY and restart baton.',
    ]);
    expect(h.server.requests).toHaveLength(0);
  });

  it('a refused key: the text names the variable, and the 401 body never reaches the chat', async () => {
    const key = 'sk-ant-test-0123456789';
    const body = {
      type: 'error',
      error: { type: 'authentication_error', message: 'BODY-MARKER invalid x-api-key' },
    };
    h = await createRuntimeHarness(
      'setup-key-refused',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the harness's placeholder for the fake's uri
      defaultConfig(CLOSED_URI, { 'anthropic.hosted': '${MODEL_URI}' }),
      { env: { ANTHROPIC_API_KEY: key } },
    );
    h.server.script([{ status: 401, body }]);
    await h.local.inject({ chat: 'keyed', text: 'hello' });
    const replies = await h.local.waitForReplies(1, { chat: 'keyed', timeoutMs: 15_000 });
    expect(replies.map((r) => r.text)).toEqual([
      "⚠️ The model provider 'anthropic.hosted' rejected the API key in ANTHROPIC_API_KEY. Set a valid key and restart baton.",
    ]);
    expect(replies[0]?.text).not.toContain('BODY-MARKER');
    expect(replies[0]?.text).not.toContain(key);
    // The key was sent to the anthropic entry (the keyless openai entry before it was skipped), once: a 401 is final.
    expect(h.server.requests.map((r) => [r.api, r.headers['x-api-key']])).toEqual([['anthropic', key]]);
  });
});
