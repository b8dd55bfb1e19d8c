// buildSecurityPolicy: profile resolution, runtime defaults, workspace_only forcing, access roots, errors.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSecurityPolicy } from '../../../src/security/policy.ts';
import { buildConfig } from '../../helpers/config-builders.ts';

const dataDir = '/srv/baton';

describe('buildSecurityPolicy', () => {
  it('copies the risk profile and the runtime profile', () => {
    const config = buildConfig({
      dataDir,
      risk_profiles: {
        ops: {
          level: 'supervised',
          allowed_commands: ['git'],
          forbidden_paths: ['/etc'],
          shell_env_passthrough: ['LANGUAGE'],
          allowed_tools: ['shell'],
          excluded_tools: ['file_write'],
          always_ask: ['shell'],
          block_high_risk_commands: false,
          require_approval_for_medium_risk: false,
          delegation_policy: { mode: 'allow' },
        },
      },
      runtime_profiles: {
        slow: { max_actions_per_hour: 7, max_cost_per_day_cents: 90, shell_timeout_secs: 5 },
      },
      agents: { main: { risk_profile: 'ops', runtime_profile: 'slow' } },
    });
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
    const config = buildConfig({ dataDir, agents: { main: { runtime_profile: name } } });
    expect(buildSecurityPolicy(config, 'main')).toMatchObject({
      maxActionsPerHour: 20,
      maxCostPerDayCents: 500,
      shellTimeoutSecs: 60,
    });
  });

  it('forces workspace_only off at level full and with unrestricted_filesystem', () => {
    const config = buildConfig({
      dataDir,
      risk_profiles: { full: { level: 'full', workspace_only: true }, sup: { workspace_only: true } },
      agents: {
        a: { risk_profile: 'full' },
        b: { risk_profile: 'sup', workspace: { unrestricted_filesystem: true } },
        c: { risk_profile: 'sup' },
      },
    });
    expect(buildSecurityPolicy(config, 'a').workspaceOnly).toBe(false);
    expect(buildSecurityPolicy(config, 'b').workspaceOnly).toBe(false);
    expect(buildSecurityPolicy(config, 'c').workspaceOnly).toBe(true);
  });

  it('maps workspace.access to read-only, write-only and read-write roots', () => {
    const config = buildConfig({
      dataDir,
      risk_profiles: { default: { allowed_roots: ['/data', 'rel'] } },
      agents: {
        main: {
          workspace: { access: { docs: 'read', inbox: 'write', shared: 'read_write', ghost: 'read' } },
        },
        docs: { workspace: { path: '/w/docs' } },
        inbox: {},
        shared: {},
      },
    });
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
    const config = buildConfig({ agents: { main: { workspace: { path: 'ws/main' } } } });
    expect(buildSecurityPolicy(config, 'main').workspaceDir).toBe(resolve('ws/main'));
  });

  it('throws the spec texts for an unknown agent and an unresolvable risk profile', () => {
    const config = buildConfig({
      agents: { main: { risk_profile: 'missing' }, blank: { risk_profile: '' } },
    });
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
