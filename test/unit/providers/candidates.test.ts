// resolveCandidates: the live credential rule (own api_key, else the type's default variable) and own-entry refs.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.ts';
import { resolveCandidates } from '../../../src/providers/candidates.ts';
import { configFromToml } from '../../helpers/test-config.ts';

const silent = createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, cb) => cb() }) });

const TOML = `
schema_version = 3
[providers.models.anthropic.shared]
model = "claude"
[providers.models.anthropic.own]
model = "claude"
api_key = "own-key"
[providers.models.anthropic.oauth]
model = "claude"
requires_openai_auth = true
[providers.models.ollama.local]
model = "llama"
[providers.models.custom.nouri]
model = "x"
[risk_profiles.p]
[agents.a]
risk_profile = "p"
`;

describe('resolveCandidates', () => {
  const { providers } = configFromToml(TOML);
  const env = { ANTHROPIC_API_KEY: 'env-key' };
  const first = (ref: string) => resolveCandidates(ref, providers, env, silent)[0]!;

  it("uses the type's default credential unless the entry is OAuth-style or has its own key", () => {
    expect(first('anthropic.shared').apiKey).toBe('env-key');
    expect(first('anthropic.own').apiKey).toBe('own-key');
    expect(first('anthropic.oauth').apiKey).toBeUndefined();
    expect(first('ollama.local').apiKey).toBeUndefined();
    expect(
      resolveCandidates('anthropic.shared', providers, { ANTHROPIC_API_KEY: '' }, silent)[0]!.apiKey,
    ).toBe(undefined);
  });

  it('takes the base URL from the one table of provider defaults', () => {
    expect(first('anthropic.shared').baseUri).toBe('https://api.anthropic.com');
    expect(first('ollama.local').baseUri).toBe('http://localhost:11434');
    expect(() => first('custom.nouri')).toThrow('provider "custom.nouri" of type "custom" needs a uri');
  });

  it('a prototype member name is no provider', () => {
    for (const ref of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(() => first(ref)).toThrow(`no provider configured under "${ref}"`);
    }
  });
});
