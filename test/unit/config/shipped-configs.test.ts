// Tests: config/baton.example.toml and config/baton.toml load clean.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { liveChannelKeys, reachableTargets } from '../../../src/config/index.ts';
import { configOf, load, messages } from './load-helper.ts';

const read = (name: string): string =>
  readFileSync(new URL(`../../../config/${name}`, import.meta.url), 'utf8');

/** The variables documented at the top of the example, each with a recognisable fake value. */
function documentedEnv(text: string): Record<string, string> {
  const names = [...text.matchAll(/^#\s{3}([A-Z][A-Z0-9_]+)\s{2,}/gm)].map((m) => m[1] ?? '');
  return Object.fromEntries(names.map((name) => [name, `fake-${name.toLowerCase()}`]));
}

describe('config/baton.example.toml', () => {
  const text = read('baton.example.toml');

  it('documents every variable it references', () => {
    const referenced = new Set([...text.matchAll(/(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]));
    referenced.delete('NAME'); // the syntax explanation in the header
    expect([...referenced].sort()).toEqual(Object.keys(documentedEnv(text)).sort());
  });

  it('loads with no error and no warning given those variables', () => {
    const r = load(text, documentedEnv(text));
    expect(messages(r)).toEqual([]);
    const config = configOf(r);
    expect(Object.keys(config.agents)).toEqual(['main', 'reviewer', 'sysadmin']);
    expect(reachableTargets(config, 'main')).toEqual([
      { alias: 'reviewer', mode: 'bounded' },
      { alias: 'sysadmin', mode: 'independent' },
    ]);
    expect(liveChannelKeys(config).sort()).toEqual([
      'discord.main',
      'slack.ops',
      'telegram.home',
      'telegram.ops',
      'web.main',
    ]);
    expect(config.secrets).toContain('fake-slack_ops_app_token');
  });

  it('fails with the env-var error when a documented variable is missing', () => {
    const env = documentedEnv(text);
    delete env.TELEGRAM_OPS_BOT_TOKEN;
    const r = load(text, env);
    expect(messages(r)[0]).toBe(
      "Invalid config at 'channels.telegram.ops.bot_token': environment variable TELEGRAM_OPS_BOT_TOKEN is not set",
    );
    // The channels section is dropped, and the agents that list its channels with it (fail closed).
    expect(r.droppedSections).toEqual(['agents', 'channels']);
  });
});

describe('config/baton.toml (the default npm start config)', () => {
  it('loads with no diagnostics and no environment at all', () => {
    const text = read('baton.toml');
    expect(text).not.toMatch(/(?<!#.*)\$\{/m);
    const r = load(text, {});
    expect(messages(r)).toEqual([]);
    const config = configOf(r);
    expect(config.agents.main?.model_provider).toBe('openai.hosted');
    expect(config.providers['ollama.local']?.uri).toBe('http://127.0.0.1:11434');
    // The web chat is the one channel on: it needs no token (config.md §12.4).
    expect(liveChannelKeys(config)).toEqual(['web.main']);
    expect(config.gateway.api_token).toBeUndefined();
  });
});
