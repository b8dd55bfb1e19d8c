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
}

export type CommandRisk = 'low' | 'medium' | 'high';
