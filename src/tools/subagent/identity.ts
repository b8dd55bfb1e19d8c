// A subagent's identity: the parent's live policy, memory allowlist and configured provider, narrowed only.
import { agentOf, riskProfileFor } from '../../config/lookup.ts';
import type { RunContext } from '../../run-contract/run-context.ts';
import { ensureNoEscalationBeyond, validateMemoryAllowlistOverride } from '../../security/escalation.ts';
import { noAgentText, noRiskProfileText } from '../../security/security-messages.ts';
import type { SecurityPolicy } from '../../security/types.ts';
import { policyEscalation, unresolvablePolicy } from './subagent-messages.ts';

/** A spawn site's narrowing of the child (subagents.md §10); no config surface asks for one today. */
export interface SubAgentOverrides {
  policy?: SecurityPolicy;
  memoryAllowlist?: string[];
}

export type IdentityResult =
  | { ok: true; value: Pick<RunContext, 'policy' | 'memoryAllowlist' | 'providerRef'> }
  | { ok: false; error: string };

export function resolveSubagentIdentity(parent: RunContext, overrides?: SubAgentOverrides): IdentityResult {
  const { config, logger } = parent.services;
  const alias = parent.agentAlias;
  const agent = agentOf(config, alias);
  if (!agent) return { ok: false, error: noAgentText(alias) };
  if (!riskProfileFor(config, alias)) {
    return { ok: false, error: unresolvablePolicy(alias, noRiskProfileText(alias)) };
  }
  let policy = parent.policy;
  if (overrides?.policy) {
    const violation = ensureNoEscalationBeyond(overrides.policy, parent.policy);
    if (violation) {
      logger.warn('subagent build refused: policy override escalates beyond parent');
      return { ok: false, error: policyEscalation(violation) };
    }
    policy = overrides.policy;
  }
  let memoryAllowlist = parent.memoryAllowlist;
  if (overrides?.memoryAllowlist) {
    const checked = validateMemoryAllowlistOverride(parent.memoryAllowlist, alias, overrides.memoryAllowlist);
    if (!checked.ok) return { ok: false, error: checked.error };
    memoryAllowlist = checked.allowlist;
  }
  return { ok: true, value: { policy, memoryAllowlist, providerRef: agent.model_provider } };
}
