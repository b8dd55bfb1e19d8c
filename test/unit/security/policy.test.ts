// buildSecurityPolicy: profile resolution, runtime defaults, workspace_only forcing, access roots, errors.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSecurityPolicy } from '../../../src/security/policy.ts';
import { configFromToml } from '../../helpers/test-config.ts';

const dataDir = '/srv/baton';
const load = (toml: string) => configFromToml(toml, { dataDir });

describe('buildSecurityPolicy', () => {
  it('copies the risk profile and the runtime profile', () => {
    const config = load(`
[risk_profiles.ops]
level = "supervised"
allowed_commands = ["git"]
forbidden_paths = ["/etc"]
shell_env_passthrough = ["LANGUAGE"]
allowed_tools = ["shell"]
excluded_tools = ["file_write"]
always_ask = ["shell"]
block_high_risk_commands = false
require_approval_for_medium_risk = false
delegation_policy = { mode = "allow" }

[runtime_profiles.slow]
max_actions_per_hour = 7
max_cost_per_day_cents = 90
shell_timeout_secs = 5

[agents.main]
risk_profile = "ops"
runtime_profile = "slow"
`);
    const p = buildSecurityPolicy(config, 'main');
    expect(p).toMatchObject({
      agentAlias: 'main',
      riskProfileName: 'ops',
      autonomy: 'supervised',
      workspaceDir: resolve(dataDir, 'workspaces/main'),
      workspaceOnly: true,
      allowedCommands: ['git'],
      forbiddenPaths: ['/etc'],
      shellEnvPassthrough: ['LANGUAGE'],
      allowedTools: ['shell'],
      excludedTools: ['file_write'],
      alwaysAsk: ['shell'],
      blockHighRiskCommands: false,
      requireApprovalForMediumRisk: false,
      delegationMode: 'allow',
      maxActionsPerHour: 7,
      maxCostPerDayCents: 90,
      shellTimeoutSecs: 5,
    });
  });

  it.each(['', 'nope'])('uses the runtime defaults when runtime_profile is %j', (name) => {
    const config = load(`
[risk_profiles.default]
[agents.main]
risk_profile = "default"
runtime_profile = "${name}"
`);
    expect(buildSecurityPolicy(config, 'main')).toMatchObject({
      maxActionsPerHour: 20,
      maxCostPerDayCents: 500,
      shellTimeoutSecs: 60,
    });
  });

  it('forces workspace_only off at level full and with unrestricted_filesystem', () => {
    const config = load(`
[risk_profiles.full]
level = "full"
workspace_only = true
[risk_profiles.sup]
workspace_only = true

[agents.a]
risk_profile = "full"
[agents.b]
risk_profile = "sup"
workspace.unrestricted_filesystem = true
[agents.c]
risk_profile = "sup"
`);
    expect(buildSecurityPolicy(config, 'a').workspaceOnly).toBe(false);
    expect(buildSecurityPolicy(config, 'b').workspaceOnly).toBe(false);
    expect(buildSecurityPolicy(config, 'c').workspaceOnly).toBe(true);
  });

  it('maps workspace.access to read-only, write-only and read-write roots', () => {
    const config = load(`
[risk_profiles.default]
allowed_roots = ["/data", "rel"]

[agents.main]
risk_profile = "default"
workspace.access = { docs = "read", inbox = "write", shared = "read_write", ghost = "read" }
[agents.docs]
risk_profile = "default"
workspace.path = "/w/docs"
[agents.inbox]
risk_profile = "default"
[agents.shared]
risk_profile = "default"
`);
    const p = buildSecurityPolicy(config, 'main');
    expect(p.allowedRoots).toEqual([
      '/data',
      resolve(dataDir, 'workspaces/main/rel'),
      resolve(dataDir, 'workspaces/shared'),
    ]);
    expect(p.allowedRootsReadOnly).toEqual(['/w/docs']);
    expect(p.allowedRootsWriteOnly).toEqual([resolve(dataDir, 'workspaces/inbox')]);
  });

  it('resolves a relative workspace path to an absolute one', () => {
    const config = configFromToml(
      '[risk_profiles.default]\n[agents.main]\nrisk_profile = "default"\nworkspace.path = "ws/main"',
    );
    expect(buildSecurityPolicy(config, 'main').workspaceDir).toBe(resolve('ws/main'));
  });

  it('throws the spec texts for an unknown agent and an unresolvable risk profile', () => {
    // The loader refuses both agents (their risk_profile resolves to nothing), so they are edited in after loading.
    const loaded = load('[risk_profiles.default]\n[agents.main]\nrisk_profile = "default"');
    const main = loaded.agents.main!;
    const config = {
      ...loaded,
      agents: {
        main: { ...main, risk_profile: 'missing' },
        blank: { ...main, alias: 'blank', risk_profile: '' },
      },
    };
    expect(() => buildSecurityPolicy(config, 'ghost')).toThrow(
      new Error('no agent configured under alias "ghost"'),
    );
    expect(() => buildSecurityPolicy(config, 'main')).toThrow(
      new Error('agents.main has no resolvable risk_profile (load-time validation should have caught this)'),
    );
    expect(() => buildSecurityPolicy(config, 'blank')).toThrow(
      'agents.blank has no resolvable risk_profile (load-time validation should have caught this)',
    );
    expect(() => buildSecurityPolicy(config, 'constructor')).toThrow(
      'no agent configured under alias "constructor"',
    );
  });
});
