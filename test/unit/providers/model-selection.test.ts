// The default config's model selection: the first key set (OPENAI, ANTHROPIC, OPENROUTER), else the local Ollama.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { resolveCandidates } from '../../../src/providers/candidates.ts';
import { modelChoice, selectCandidates } from '../../../src/providers/model-selection.ts';
import { startupSummary } from '../../../src/roles/startup-summary.ts';
import { configFromToml } from '../../helpers/test-config.ts';
import { configOf, load, messages } from '../config/load-helper.ts';

const DEFAULT_TOML = readFileSync(new URL('../../../config/baton.toml', import.meta.url), 'utf8');
const KEY = 'sk-test-0123456789';

/** The chain `main` runs with under `env`, as provider refs in order, and its startup line. */
function selection(env: Record<string, string>) {
  const r = load(DEFAULT_TOML, env);
  expect(messages(r)).toEqual([]); // `baton config check` passes: no error, no warning
  const config = configOf(r);
  const ref = config.agents.main?.model_provider ?? '';
  const all = resolveCandidates(ref, config.providers, env, createSilentLogger());
  const { usable } = selectCandidates(all);
  return {
    chain: usable.map((c) => c.entry.ref),
    keys: usable.map((c) => c.apiKey),
    line: modelChoice('main', ref, config.providers, env),
  };
}

describe('config/baton.toml model selection', () => {
  it('uses the local Ollama when no key is set, and says why', () => {
    const s = selection({});
    expect(s.chain).toEqual(['ollama.local']);
    expect(s.line).toBe(
      'model for main: ollama.local (qwen2.5-coder:7b) at 127.0.0.1:11434 (not set: OPENAI_API_KEY, ANTHROPIC_API_KEY, OPENROUTER_API_KEY)',
    );
  });

  it('uses OPENAI_API_KEY alone, Ollama staying the fallback', () => {
    const s = selection({ OPENAI_API_KEY: KEY });
    expect(s.chain).toEqual(['openai.hosted', 'ollama.local']);
    expect(s.keys).toEqual([KEY, undefined]);
    expect(s.line).toBe('model for main: openai.hosted (gpt-4o-mini) via OPENAI_API_KEY');
  });

  it('uses ANTHROPIC_API_KEY alone', () => {
    const s = selection({ ANTHROPIC_API_KEY: KEY });
    expect(s.chain).toEqual(['anthropic.hosted', 'ollama.local']);
    expect(s.line).toBe(
      'model for main: anthropic.hosted (claude-sonnet-4-5) via ANTHROPIC_API_KEY (not set: OPENAI_API_KEY)',
    );
  });

  it('uses OPENROUTER_API_KEY alone', () => {
    const s = selection({ OPENROUTER_API_KEY: KEY });
    expect(s.chain).toEqual(['openrouter.hosted', 'ollama.local']);
    expect(s.line).toBe(
      'model for main: openrouter.hosted (openai/gpt-4o-mini) via OPENROUTER_API_KEY (not set: OPENAI_API_KEY, ANTHROPIC_API_KEY)',
    );
  });

  it('with several keys, the documented precedence OPENAI > ANTHROPIC > OPENROUTER orders the chain', () => {
    expect(selection({ OPENROUTER_API_KEY: KEY, ANTHROPIC_API_KEY: KEY }).chain).toEqual([
      'anthropic.hosted',
      'openrouter.hosted',
      'ollama.local',
    ]);
    const all = selection({ OPENROUTER_API_KEY: KEY, ANTHROPIC_API_KEY: KEY, OPENAI_API_KEY: KEY });
    expect(all.chain).toEqual(['openai.hosted', 'anthropic.hosted', 'openrouter.hosted', 'ollama.local']);
    expect(all.line).toBe('model for main: openai.hosted (gpt-4o-mini) via OPENAI_API_KEY');
  });

  it('the startup lines of a role that runs turns say it; the gateway role (no turns) does not', () => {
    const config = configFromToml(DEFAULT_TOML);
    const env = { ANTHROPIC_API_KEY: KEY };
    expect(startupSummary(config, 'gateway + worker', [], [], env)).toContain(
      'model for main: anthropic.hosted (claude-sonnet-4-5) via ANTHROPIC_API_KEY (not set: OPENAI_API_KEY)',
    );
    expect(startupSummary(config, 'gateway', [], []).some((l) => l.startsWith('model for'))).toBe(false);
  });

  it('the agents line names the model the chain chose, not the head of the chain (issue 21 #12)', () => {
    const config = configFromToml(DEFAULT_TOML);
    const keyless = startupSummary(config, 'gateway + worker', [], [], {});
    expect(keyless).toContain('agents: main (model ollama.local)');
    expect(keyless).toContain(
      'model for main: ollama.local (qwen2.5-coder:7b) at 127.0.0.1:11434 (not set: OPENAI_API_KEY, ANTHROPIC_API_KEY, OPENROUTER_API_KEY)',
    );
    expect(startupSummary(config, 'worker', [], [], { ANTHROPIC_API_KEY: KEY })).toContain(
      'agents: main (model anthropic.hosted)',
    );
    // The gateway runs no turns and chooses nothing: it names the configured chain as the config key says it.
    expect(startupSummary(config, 'gateway', [], [])).toContain(
      'agents: main (model_provider openai.hosted)',
    );
  });

  it('an empty variable counts as no key', () => {
    expect(selection({ OPENAI_API_KEY: '' }).chain).toEqual(['ollama.local']);
  });
});

describe('selectCandidates on other configs', () => {
  const TOML = `
schema_version = 3
[providers.models.openai.keyless]
model = "gpt"
fallback = ["openai.proxy", "anthropic.header"]
[providers.models.openai.proxy]
uri = "http://127.0.0.1:8000/v1"
model = "local"
[providers.models.anthropic.header]
model = "claude"
extra_headers = { "x-api-key" = "from-a-header" }
[providers.models.openai.alone]
model = "gpt"
[risk_profiles.p]
[agents.a]
risk_profile = "p"
`;
  const { providers } = configFromToml(TOML);
  const chain = (ref: string) =>
    selectCandidates(resolveCandidates(ref, providers, {}, createSilentLogger())).usable.map((c) => [
      c.index,
      c.entry.ref,
    ]);

  it('skips only a hosted entry at its public endpoint with no key and no credential header', () => {
    expect(chain('openai.keyless')).toEqual([
      [0, 'openai.proxy'],
      [1, 'anthropic.header'],
    ]);
  });

  it('keeps a keyless chain as configured when nothing else is left (the request fails as before)', () => {
    expect(chain('openai.alone')).toEqual([[0, 'openai.alone']]);
  });
});
