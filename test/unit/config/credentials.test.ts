// Tests: every credential source joins the secret set (config.md §2, §6.1), and the provider code uses the same key.
import { describe, expect, it } from 'vitest';
import { loadConfigText } from '../../../src/config/index.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { resolveCandidates } from '../../../src/providers/candidates.ts';

const TOML = `
[redis]
url = "redis://:redis%2Fpass-77@127.0.0.1:6379"
[gateway]
api_token = "gateway-token-1234"
[providers.models.openai.envkey]
model = "m"
[providers.models.custom.interp]
uri = "https://user:uri-pass-42@models.example"
model = "m"
api_key = "\${INTERP_KEY}"
[providers.models.custom.literal]
uri = "http://127.0.0.1:1"
model = "m"
api_key = "literal-key-5678"
extra_headers = { "X-Api-Secret" = "header-secret-9", "X-Title" = "baton" }
[providers.models.openai.oauth]
model = "m"
requires_openai_auth = true
[channels.slack.ops]
bot_token = "xoxb-bot-token"
app_token = "xapp-app-token"
signing_secret = "slack-signing-1"
`;

const env = { INTERP_KEY: 'interp-key-1234', OPENAI_API_KEY: 'default-env-key-1' };

describe('secret set', () => {
  const loaded = loadConfigText(TOML, env);
  const secrets = loaded.config?.secrets ?? [];

  it('holds every credential, whatever its source', () => {
    for (const value of [
      'interp-key-1234',
      'default-env-key-1',
      'literal-key-5678',
      'header-secret-9',
      'gateway-token-1234',
      'redis%2Fpass-77',
      'redis/pass-77',
      'uri-pass-42',
      'xoxb-bot-token',
      'xapp-app-token',
      'slack-signing-1',
    ])
      expect(secrets).toContain(value);
  });

  it('does not treat a public header (X-Title) as a secret', () => {
    expect(secrets).not.toContain('baton');
  });

  it('contains exactly the key each provider candidate is built with', () => {
    const providers = loaded.config?.providers ?? {};
    for (const ref of Object.keys(providers)) {
      for (const c of resolveCandidates(ref, providers, env, createSilentLogger())) {
        if (c.apiKey !== undefined) expect(secrets).toContain(c.apiKey);
      }
    }
    const oauth = resolveCandidates('openai.oauth', providers, env, createSilentLogger());
    expect(oauth[0]?.apiKey).toBeUndefined();
  });

  it('warns, by path and never by value, about a credential too short to redact', () => {
    const short = loadConfigText('[gateway]\napi_token = "abc"\n', {});
    const warning = short.diagnostics.find((d) => d.path === 'gateway.api_token');
    expect(warning?.severity).toBe('warning');
    expect(warning?.message).toContain('shorter than 6 characters');
    expect(warning?.message).not.toContain('"abc"');
  });
});
