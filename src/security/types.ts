// SecurityPolicy: what one run may do, resolved from its agent's risk and runtime profiles.
import type { Autonomy, RiskProfile } from '../config/types.ts';

export interface SecurityPolicy {
  agentAlias: string;
  riskProfileName: string;
  autonomy: Autonomy;
  /** The run's workspace directory (absolute). */
  workspaceDir: string;
  workspaceOnly: boolean;
  /** Read-write roots beyond the workspace (absolute). */
  allowedRoots: string[];
  /** From `workspace.access = "read"`. */
  allowedRootsReadOnly: string[];
  /** From `workspace.access = "write"`. */
  allowedRootsWriteOnly: string[];
  allowedCommands: string[];
  forbiddenPaths: string[];
  shellEnvPassthrough: string[];
  maxActionsPerHour: number;
  maxCostPerDayCents: number;
  shellTimeoutSecs: number;
  blockHighRiskCommands: boolean;
  requireApprovalForMediumRisk: boolean;
  /** Tool filter and approval lists, straight from the risk profile. */
  allowedTools: string[];
  excludedTools: string[];
  denyAllTools: boolean;
  autoApprove: string[];
  alwaysAsk: string[];
  delegationMode: RiskProfile['delegation_policy']['mode'];
  approvalRoute: RiskProfile['approval_route'];
  /** How shell commands are sandboxed (config.md §10.2). */
  sandbox: SandboxSettings;
}

/** `sandbox_enabled`: undefined = auto (sandboxed where it works), true = required, false = off. */
export interface SandboxSettings {
  enabled: boolean | undefined;
  /** Unsupported ZeroClaw values are already mapped to "auto". */
  backend: 'auto' | 'bubblewrap' | 'none';
  allowNetwork: boolean;
}

export type CommandRisk = 'low' | 'medium' | 'high';
