// Tests: derived views (reachableTargets per delegate.md §4, profiles, providers, live channels).
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RUNTIME_PROFILE,
  effectiveMaxDelegationDepth,
  effectiveMaxToolIterations,
  liveChannelKeys,
  providerTypeOf,
  reachableTargets,
  riskProfileFor,
  runtimeProfileFor,
} from '../../../src/config/index.ts';
import { configOf, load } from './load-helper.ts';

const ROSTER = `
schema_version = 3
[risk_profiles.team]
[risk_profiles.ops]
[agents.main]
risk_profile = "team"
delegates = ["ops1", { agent = "peer", mode = "independent" }, "off"]
[agents.peer]
risk_profile = " team "
[agents.zed]
risk_profile = "team"
[agents.disabledpeer]
risk_profile = "team"
enabled = false
[agents.ops1]
risk_profile = "ops"
[agents.ops2]
risk_profile = "ops"
delegate_same_risk_profile = false
[agents.off]
risk_profile = "ops"
enabled = false
`;

describe('reachableTargets (delegate.md §4)', () => {
  const config = configOf(load(ROSTER));

  it('merges same-profile peers (bounded) with explicit entries, which replace the implicit mode', () => {
    expect(reachableTargets(config, 'main')).toEqual([
      { alias: 'ops1', mode: 'bounded' },
      { alias: 'peer', mode: 'independent' },
      { alias: 'zed', mode: 'bounded' },
    ]);
  });

  it('never lists the caller or a disabled agent, and is empty for an unknown caller', () => {
    expect(reachableTargets(config, 'peer')).toEqual([
      { alias: 'main', mode: 'bounded' },
      { alias: 'zed', mode: 'bounded' },
    ]);
    expect(reachableTargets(config, 'nobody')).toEqual([]);
  });

  it('reaches no peer when delegate_same_risk_profile is false', () => {
    expect(reachableTargets(config, 'ops2')).toEqual([]);
    expect(reachableTargets(config, 'ops1')).toEqual([{ alias: 'ops2', mode: 'bounded' }]);
  });

  it('skips blank, self, dangling and disabled explicit entries of a hand-built config', () => {
    const main = config.agents.main;
    if (main === undefined) throw new Error('missing main');
    const handBuilt = {
      ...config,
      agents: {
        ...config.agents,
        main: {
          ...main,
          delegate_same_risk_profile: false,
          delegates: [
            { agent: ' ', mode: 'bounded' as const },
            { agent: 'main', mode: 'bounded' as const },
            { agent: 'ghost', mode: 'independent' as const },
            { agent: 'off', mode: 'independent' as const },
            { agent: ' ops2 ', mode: 'independent' as const },
          ],
        },
      },
    };
    expect(reachableTargets(handBuilt, 'main')).toEqual([{ alias: 'ops2', mode: 'independent' }]);
  });
});

describe('profile views', () => {
  const r = load(`
schema_version = 3
[risk_profiles.p]
level = "full"
auto_approve = ["shell", "file_read"]
[runtime_profiles.r]
max_tool_iterations = 4
max_delegation_depth = 2
[runtime_profiles.zero]
[agents.a]
risk_profile = "p"
runtime_profile = "r"
[agents.b]
risk_profile = "p"
runtime_profile = "zero"
[agents.c]
risk_profile = "p"
`);
  const config = configOf(r);

  it('resolves runtime profiles, with defaults when empty or unknown', () => {
    expect(runtimeProfileFor(config, 'a').name).toBe('r');
    expect(runtimeProfileFor(config, 'c')).toEqual(DEFAULT_RUNTIME_PROFILE);
    expect(runtimeProfileFor(config, 'nobody')).toEqual(DEFAULT_RUNTIME_PROFILE);
    expect(DEFAULT_RUNTIME_PROFILE.max_actions_per_hour).toBe(20);
    expect(DEFAULT_RUNTIME_PROFILE.max_cost_per_day_cents).toBe(500);
    expect(DEFAULT_RUNTIME_PROFILE.shell_timeout_secs).toBe(60);
  });

  it('applies 0 → 10 tool iterations and 0/missing → 3 delegation depth', () => {
    expect(effectiveMaxToolIterations(runtimeProfileFor(config, 'a'))).toBe(4);
    expect(effectiveMaxToolIterations(runtimeProfileFor(config, 'b'))).toBe(10);
    expect(effectiveMaxDelegationDepth(runtimeProfileFor(config, 'a'))).toBe(2);
    expect(effectiveMaxDelegationDepth(runtimeProfileFor(config, 'b'))).toBe(3);
    expect(effectiveMaxDelegationDepth(undefined)).toBe(3);
  });

  it('resolves risk profiles with merged auto_approve and full ⇒ workspace_only false', () => {
    const p = riskProfileFor(config, 'a');
    expect(p?.name).toBe('p');
    expect(p?.workspace_only).toBe(false);
    expect(p?.auto_approve.slice(0, 2)).toEqual(['file_read', 'memory_recall']);
    expect(p?.auto_approve.filter((t) => t === 'file_read')).toHaveLength(1);
    expect(p?.auto_approve.at(-1)).toBe('shell');
    expect(riskProfileFor(config, 'nobody')).toBeUndefined();
  });
});

describe('providers', () => {
  it('splits the type off a reference', () => {
    expect(providerTypeOf('anthropic.primary')).toBe('anthropic');
    expect(providerTypeOf('custom.a.b')).toBe('custom');
    expect(providerTypeOf('bare')).toBe('bare');
  });
});

describe('liveChannelKeys (config.md §12 "Which channels start")', () => {
  const channels = `
[channels.telegram.home]
enabled = true
bot_token = "t"
[channels.telegram.ops]
enabled = true
bot_token = "t"
[channels.discord.off]
enabled = false
`;

  it('starts every enabled channel when no agent declares channels', () => {
    const config = configOf(
      load(`schema_version = 3\n[risk_profiles.p]\n[agents.a]\nrisk_profile = "p"\n${channels}`),
    );
    expect(liveChannelKeys(config)).toEqual(['telegram.home', 'telegram.ops']);
  });

  it('starts only enabled channels listed by an enabled agent once any agent declares channels', () => {
    const config = configOf(
      load(`schema_version = 3
[risk_profiles.p]
[agents.a]
risk_profile = "p"
channels = ["telegram.home", "discord.off"]
[agents.b]
risk_profile = "p"
enabled = false
channels = ["telegram.ops"]
${channels}`),
    );
    expect(liveChannelKeys(config)).toEqual(['telegram.home']);
  });
});
