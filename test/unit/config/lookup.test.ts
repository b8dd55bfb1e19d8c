// The one config lookup: own entries only, so prototype member names never resolve to anything.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RUNTIME_PROFILE } from '../../../src/config/defaults.ts';
import {
  agentOf,
  channelOf,
  cronJobOf,
  hasEntry,
  modelRateOf,
  ownEntry,
  providerOf,
  riskProfileFor,
  runtimeProfileFor,
  toolRateOf,
} from '../../../src/config/lookup.ts';
import { PROJECT_ROOT as ROOT, sourceFiles } from '../../helpers/source-files.ts';
import { configFromToml } from '../../helpers/test-config.ts';

/** Every name an object inherits from Object.prototype, plus `__proto__` (a getter). */
const PROTOTYPE_NAMES = [...Object.getOwnPropertyNames(Object.prototype), 'prototype'];

const TOML = `
schema_version = 3

[providers.models.custom.fake]
uri = "http://127.0.0.1:1/v1"
model = "m"

[cost.rates.providers.models.custom.m]
input_per_mtok = 2

[cost.rates.tools.shell]
per_call = 0.5

[risk_profiles.p]

[runtime_profiles.r]
max_tool_iterations = 4

[agents.a]
risk_profile = "p"
runtime_profile = "r"
model_provider = "custom.fake"
cron_jobs = ["j"]

[cron.j]
job_type = "agent"
schedule = { kind = "every", every_ms = 60000 }
prompt = "x"
`;

describe('config lookup', () => {
  const config = configFromToml(TOML);

  it('finds configured entries (trimmed names) along agent → profiles → provider', () => {
    expect(agentOf(config, ' a ')?.alias).toBe('a');
    expect(riskProfileFor(config, 'a')?.name).toBe('p');
    expect(runtimeProfileFor(config, 'a').max_tool_iterations).toBe(4);
    expect(providerOf(config, ' custom.fake ')?.model).toBe('m');
    expect(cronJobOf(config, 'j')?.prompt).toBe('x');
    expect(modelRateOf(config.cost.rates, 'custom', 'm')?.input_per_mtok).toBe(2);
    expect(toolRateOf(config.cost.rates, 'shell')).toBe(0.5);
  });

  it('never resolves a prototype member name, in any table', () => {
    expect(PROTOTYPE_NAMES).toEqual(
      expect.arrayContaining(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']),
    );
    for (const name of PROTOTYPE_NAMES) {
      expect(agentOf(config, name), name).toBeUndefined();
      expect(riskProfileFor(config, name), name).toBeUndefined();
      expect(runtimeProfileFor(config, name), name).toEqual(DEFAULT_RUNTIME_PROFILE);
      expect(providerOf(config, name), name).toBeUndefined();
      expect(channelOf(config, name), name).toBeUndefined();
      expect(cronJobOf(config, name), name).toBeUndefined();
      expect(modelRateOf(config.cost.rates, name, 'm'), name).toBeUndefined();
      expect(modelRateOf(config.cost.rates, 'custom', name), name).toBeUndefined();
      expect(toolRateOf(config.cost.rates, name), name).toBe(0);
      expect(ownEntry({ a: 1 }, name), name).toBeUndefined();
      expect(hasEntry({ a: 1 }, name), name).toBe(false);
    }
  });

  it('an agent whose profile or provider is a prototype name gets nothing from it', () => {
    // Edited in after loading: the loader would already refuse this agent (its risk_profile resolves to nothing).
    const a = config.agents.a!;
    const b = {
      ...a,
      alias: 'b',
      risk_profile: 'constructor',
      runtime_profile: 'toString',
      model_provider: '__proto__',
    };
    const bad = { ...config, agents: { b } };
    expect(riskProfileFor(bad, 'b')).toBeUndefined();
    expect(runtimeProfileFor(bad, 'b')).toEqual(DEFAULT_RUNTIME_PROFILE);
    expect(providerOf(bad, agentOf(bad, 'b')!.model_provider)).toBeUndefined();
  });

  it('an entry really named like a prototype member is found (own entries are what count)', () => {
    const table: Record<string, number> = JSON.parse('{"constructor": 1, "__proto__": 2}');
    expect(ownEntry(table, 'constructor')).toBe(1);
    expect(ownEntry(table, '__proto__')).toBe(2);
    expect(ownEntry(table, 'toString')).toBeUndefined();
    expect(ownEntry(table, '')).toBeUndefined();
  });
});

describe('config tables are read only through src/config/lookup.ts', () => {
  // `config.agents[x]`, `providers[ref]`, `rates.models[type]?.[model]`, `channels?.[key]`, …
  const INLINE =
    /\b(agents|risk_profiles|runtime_profiles|providers|channels|cron|peer_groups|models)\??\.?\[[^\]]/;

  it('no inline index into a config table outside the lookup module', () => {
    const offenders = ['src', 'channels']
      .flatMap(sourceFiles)
      .filter((f) => !f.endsWith(join('config', 'lookup.ts')))
      .flatMap((f) =>
        readFileSync(join(ROOT, f), 'utf8')
          .split('\n')
          .map((line, i) => ({ at: `${relative('.', f)}:${i + 1}`, line }))
          .filter(({ line }) => !/^\s*(\/\/|\*|\/\*)/.test(line) && INLINE.test(line)),
      );
    expect(offenders).toEqual([]);
  });

  it('the pattern matches the inline forms it guards against', () => {
    for (const line of [
      'const agent = config.agents[alias];',
      'const p = providers[ref];',
      'rates.models[type]?.[model]',
      'config.risk_profiles[name]',
      'run.services.config.channels[run.origin.channel]?.excluded_tools',
    ]) {
      expect(INLINE.test(line), line).toBe(true);
    }
    expect(INLINE.test('Object.values(config.agents)')).toBe(false);
  });
});
