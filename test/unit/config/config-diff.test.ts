// What a reload reports: changed TOML paths (values never shown) and the restart-only keys it keeps.
import { describe, expect, it } from 'vitest';
import { changedPaths, keepRestartOnly } from '../../../src/config/config-diff.ts';
import { loadConfigText } from '../../../src/config/index.ts';
import type { BatonConfig } from '../../../src/config/types.ts';

const toml = (
  o: { model?: string; port?: number; token?: string; rate?: number; enabled?: boolean } = {},
) => `
[gateway]
port = ${o.port ?? 8080}

[providers.models.custom.m]
uri = "http://127.0.0.1:1/v1"
model = "${o.model ?? 'a'}"

[cost.rates.providers.models.custom."a:1"]
input_per_mtok = ${o.rate ?? 1}.0

[channels.telegram.home]
enabled = ${o.enabled ?? true}
bot_token = "${o.token ?? '123:abc'}"

[risk_profiles.p]

[agents.main]
model_provider = "custom.m"
risk_profile = "p"
channels = ["telegram.home"]
`;

function config(text: string): BatonConfig {
  const c = loadConfigText(text, {}).config;
  if (!c) throw new Error('invalid');
  return c;
}

describe('changedPaths', () => {
  it('names changed values by their TOML path', () => {
    expect(changedPaths(config(toml()), config(toml({ model: 'b', rate: 2 })))).toEqual([
      'providers.models.custom.m.model',
      'cost.rates.providers.models.custom."a:1".input_per_mtok',
    ]);
    expect(changedPaths(config(toml()), config(toml()))).toEqual([]);
  });
});

describe('keepRestartOnly', () => {
  it('keeps the running gateway port and names it', () => {
    const prev = config(toml());
    const out = keepRestartOnly(prev, config(toml({ port: 9090, model: 'b' })));
    expect(out.paths).toEqual(['gateway.port']);
    expect(out.config.gateway.port).toBe(8080);
    expect(out.config.providers['custom.m']?.model).toBe('b');
  });

  it("names a running channel's connection keys, and a channel that starts or stops", () => {
    const prev = config(toml());
    expect(keepRestartOnly(prev, config(toml({ token: '456:def' }))).paths).toEqual([
      'channels.telegram.home.bot_token',
    ]);
    expect(keepRestartOnly(prev, config(toml({ enabled: false }))).paths).toEqual(['channels.telegram.home']);
  });
});
