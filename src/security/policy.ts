// Builds an agent's SecurityPolicy from its risk profile, runtime profile and workspace settings.
import { resolve } from 'node:path';
import { agentOf, riskProfileFor, runtimeProfileFor } from '../config/lookup.ts';
import type { AgentConfig, BatonConfig, RiskProfile } from '../config/types.ts';
import { absolutePath } from './paths.ts';
import { noAgentText, noRiskProfileText } from './security-messages.ts';
import type { SandboxSettings, SecurityPolicy } from './types.ts';

interface AccessRoots {
  readWrite: string[];
  readOnly: string[];
  writeOnly: string[];
}

/** `workspace.access`: another agent's workspace as a read-only, write-only or read-write root. */
function accessRoots(config: BatonConfig, agent: AgentConfig): AccessRoots {
  const out: AccessRoots = { readWrite: [], readOnly: [], writeOnly: [] };
  for (const [other, mode] of Object.entries(agent.workspace.access)) {
    const target = agentOf(config, other);
    // An unknown alias is a load-time diagnostic; here it simply grants nothing.
    if (!target) continue;
    const root = resolve(target.workspace.path);
    if (mode === 'read') out.readOnly.push(root);
    else if (mode === 'write') out.writeOnly.push(root);
    else if (mode === 'read_write') out.readWrite.push(root);
  }
  return out;
}

const unique = (xs: string[]) => [...new Set(xs)];

function sandboxSettings(risk: RiskProfile): SandboxSettings {
  const b = risk.sandbox_backend;
  return {
    enabled: risk.sandbox_enabled,
    // firejail, landlock, docker: warned at load time, then treated as "auto".
    backend: b === 'bubblewrap' || b === 'none' ? b : 'auto',
    allowNetwork: risk.sandbox_allow.includes('network'),
  };
}

export function buildSecurityPolicy(config: BatonConfig, agentAlias: string): SecurityPolicy {
  const agent = agentOf(config, agentAlias);
  if (!agent) throw new Error(noAgentText(agentAlias));
  const risk = riskProfileFor(config, agentAlias);
  if (!risk) throw new Error(noRiskProfileText(agentAlias));
  const runtime = runtimeProfileFor(config, agentAlias);

  const workspaceDir = resolve(agent.workspace.path);
  const access = accessRoots(config, agent);
  const unrestricted = risk.level === 'full' || agent.workspace.unrestricted_filesystem;

  return {
    agentAlias,
    riskProfileName: risk.name,
    autonomy: risk.level,
    workspaceDir,
    workspaceOnly: unrestricted ? false : risk.workspace_only,
    allowedRoots: unique([
      ...risk.allowed_roots.map((r) => absolutePath(r, workspaceDir)),
      ...access.readWrite,
    ]),
    allowedRootsReadOnly: unique(access.readOnly),
    allowedRootsWriteOnly: unique(access.writeOnly),
    allowedCommands: [...risk.allowed_commands],
    forbiddenPaths: [...risk.forbidden_paths],
    shellEnvPassthrough: [...risk.shell_env_passthrough],
    maxActionsPerHour: runtime.max_actions_per_hour,
    maxCostPerDayCents: runtime.max_cost_per_day_cents,
    shellTimeoutSecs: runtime.shell_timeout_secs,
    blockHighRiskCommands: risk.block_high_risk_commands,
    requireApprovalForMediumRisk: risk.require_approval_for_medium_risk,
    allowedTools: [...risk.allowed_tools],
    excludedTools: [...risk.excluded_tools],
    denyAllTools: risk.deny_all_tools,
    autoApprove: [...risk.auto_approve],
    alwaysAsk: [...risk.always_ask],
    delegationMode: risk.delegation_policy.mode,
    approvalRoute: risk.approval_route,
    sandbox: sandboxSettings(risk),
  };
}
