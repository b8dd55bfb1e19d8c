// Test builders for BatonConfig and its profiles, with every field at its spec default (config.md §9–§11).
import { join } from 'node:path';
import {
  DEFAULT_ALLOWED_COMMANDS,
  DEFAULT_AUTO_APPROVE,
  DEFAULT_FORBIDDEN_PATHS,
  DEFAULT_RUNTIME_PROFILE,
} from '../../src/config/defaults.ts';
import type { AgentConfig, BatonConfig, RiskProfile, RuntimeProfile } from '../../src/config/types.ts';
import type { SecurityPolicy } from '../../src/security/types.ts';

export { DEFAULT_AUTO_APPROVE };

export function buildRiskProfile(name = 'default', over: Partial<RiskProfile> = {}): RiskProfile {
  return {
    name,
    level: 'supervised',
    workspace_only: true,
    allowed_commands: [...DEFAULT_ALLOWED_COMMANDS],
    forbidden_paths: [...DEFAULT_FORBIDDEN_PATHS],
    require_approval_for_medium_risk: true,
    block_high_risk_commands: true,
    shell_env_passthrough: [],
    auto_approve: [...DEFAULT_AUTO_APPROVE],
    always_ask: [],
    allowed_roots: [],
    delegation_policy: { mode: 'forbidden' },
    allowed_tools: [],
    excluded_tools: [],
    deny_all_tools: false,
    approval_route: undefined,
    sandbox_enabled: undefined,
    sandbox_backend: 'auto',
    sandbox_allow: [],
    ...over,
  };
}

export function buildRuntimeProfile(name = 'default', over: Partial<RuntimeProfile> = {}): RuntimeProfile {
  return { ...DEFAULT_RUNTIME_PROFILE, name, ...over };
}

export type AgentOverrides = Partial<Omit<AgentConfig, 'workspace'>> & {
  workspace?: Partial<AgentConfig['workspace']>;
};

export function buildAgent(alias: string, dataDir: string, over: AgentOverrides = {}): AgentConfig {
  const { workspace, ...rest } = over;
  return {
    alias,
    enabled: true,
    channels: [],
    model_provider: '',
    risk_profile: 'default',
    runtime_profile: '',
    delegate_same_risk_profile: true,
    delegates: [],
    cron_jobs: [],
    ...rest,
    workspace: {
      path: join(dataDir, 'workspaces', alias),
      access: {},
      unrestricted_filesystem: false,
      read_memory_from: [],
      ...workspace,
    },
  };
}

export interface ConfigOverrides
  extends Partial<Omit<BatonConfig, 'agents' | 'risk_profiles' | 'runtime_profiles'>> {
  dataDir?: string;
  agents?: Record<string, AgentOverrides>;
  risk_profiles?: Record<string, Partial<RiskProfile>>;
  runtime_profiles?: Record<string, Partial<RuntimeProfile>>;
}

/** A complete config; `agents`, `risk_profiles` and `runtime_profiles` take overrides keyed by alias/name. */
export function buildConfig(over: ConfigOverrides = {}): BatonConfig {
  const { dataDir = '/tmp/baton-test', agents = {}, risk_profiles, runtime_profiles = {}, ...rest } = over;
  const risks = risk_profiles ?? { default: {} };
  return {
    schema_version: 3,
    redis: { url: 'redis://127.0.0.1:6379', prefix: 'baton-test' },
    gateway: { host: '127.0.0.1', port: 0, data_dir: dataDir, api_token: undefined },
    worker: { concurrency: 4, background_concurrency: 2, shutdown_grace_secs: 10 },
    providers: {},
    reliability: { provider_retries: 2, provider_backoff_ms: 500, scheduler_retries: 2 },
    delegate: { timeout_secs: 120, agentic_timeout_secs: 300 },
    cost: {
      enabled: false,
      daily_limit_usd: 10,
      monthly_limit_usd: 100,
      warn_at_percent: 80,
      allow_override: false,
      track_per_agent: false,
      enforcement: { mode: 'warn', route_down_model: undefined, reserve_percent: 0 },
      rates: { models: {}, tools: {} },
    },
    risk_profiles: Object.fromEntries(Object.entries(risks).map(([n, r]) => [n, buildRiskProfile(n, r)])),
    runtime_profiles: Object.fromEntries(
      Object.entries(runtime_profiles).map(([n, r]) => [n, buildRuntimeProfile(n, r)]),
    ),
    agents: Object.fromEntries(Object.entries(agents).map(([a, o]) => [a, buildAgent(a, dataDir, o)])),
    channels: {},
    peer_groups: {},
    cron: {},
    secrets: [],
    ...rest,
  };
}

/** A supervised policy with spec defaults, for tests that do not go through a config. */
export function buildPolicy(over: Partial<SecurityPolicy> = {}): SecurityPolicy {
  return {
    agentAlias: 'main',
    riskProfileName: 'default',
    autonomy: 'supervised',
    workspaceDir: '/srv/baton/workspaces/main',
    workspaceOnly: true,
    allowedRoots: [],
    allowedRootsReadOnly: [],
    allowedRootsWriteOnly: [],
    allowedCommands: [...DEFAULT_ALLOWED_COMMANDS],
    forbiddenPaths: [...DEFAULT_FORBIDDEN_PATHS],
    shellEnvPassthrough: [],
    maxActionsPerHour: 20,
    maxCostPerDayCents: 500,
    shellTimeoutSecs: 60,
    blockHighRiskCommands: true,
    requireApprovalForMediumRisk: true,
    allowedTools: [],
    excludedTools: [],
    denyAllTools: false,
    autoApprove: [...DEFAULT_AUTO_APPROVE],
    alwaysAsk: [],
    delegationMode: 'forbidden',
    approvalRoute: undefined,
    sandbox: { enabled: undefined, backend: 'auto', allowNetwork: false },
    ...over,
  };
}
