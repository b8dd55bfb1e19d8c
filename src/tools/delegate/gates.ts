// The admission gates of delegate.md §5: delegation_policy, reachability, target policy, always_ask.
import {
  hasEntry,
  isCompleteRoute,
  ownEntry,
  riskProfileFor,
  runtimeProfileFor,
} from '../../config/lookup.ts';
import type { BatonConfig, DelegateMode } from '../../config/types.ts';
import { reachableTargets } from '../../config/views.ts';
import { errorMessage } from '../../core/errors.ts';
import type { Logger } from '../../core/logger.ts';
import type { AdmittedTarget } from '../../run-contract/delegation-view.ts';
import { buildSecurityPolicy } from '../../security/policy.ts';
import type { SecurityPolicy } from '../../security/types.ts';
import {
  boundedAgenticAlwaysAsk,
  delegationForbidden,
  independentAlwaysAsk,
  NONE_CONFIGURED,
  reach,
  refusalLog,
  targetPolicyFailed,
} from './delegate-messages.ts';

export type GateResult = { ok: true; value: AdmittedTarget } | { ok: false; error: string };

/** Every configured alias, sorted by code point (§6.2's list, not the roster). */
export function allAgentsList(config: BatonConfig): string {
  const names = Object.keys(config.agents).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return names.length ? names.join(', ') : NONE_CONFIGURED;
}

export const isConfiguredAgent = (config: BatonConfig, alias: string) => hasEntry(config.agents, alias);

/** The advertised roster (§3): empty unless the caller's policy allows delegation. */
export function advertisedRoster(
  config: BatonConfig,
  caller: string,
  callerPolicy: Pick<SecurityPolicy, 'delegationMode'>,
): string[] {
  if (callerPolicy.delegationMode !== 'allow') return [];
  return reachableTargets(config, caller).map((t) => t.alias);
}

export function modeOf(config: BatonConfig, caller: string, target: string): DelegateMode | undefined {
  return reachableTargets(config, caller).find((t) => t.alias === target.trim())?.mode;
}

/** §5.2: the first matching text for a target without a mode. */
function unreachableText(config: BatonConfig, t: string, c: string): string {
  const caller = ownEntry(config.agents, c);
  if (!caller) return reach.callerMissing(t, c);
  const target = ownEntry(config.agents, t);
  if (!target) return reach.targetMissing(t, c);
  if (!target.enabled) return reach.targetDisabled(t, c);
  const listed = caller.delegates.some((d) => d.agent.trim() === t);
  const cp = caller.risk_profile.trim();
  const tp = target.risk_profile.trim();
  if (caller.delegate_same_risk_profile && !listed && cp !== '' && tp !== '' && cp !== tp) {
    return reach.differentProfile(t, c, cp, tp);
  }
  if (!caller.delegate_same_risk_profile && !listed) return reach.sameProfileOff(t, c);
  return reach.other(t, c);
}

/** §5.1 → §5.3 then the §5.4 refusal, in that order; refusals are logged as §17 says. */
export function admitTarget(
  config: BatonConfig,
  caller: string,
  callerPolicy: Pick<SecurityPolicy, 'delegationMode'>,
  target: string,
  logger: Logger,
): GateResult {
  const callerProfile = ownEntry(config.agents, caller)?.risk_profile.trim() ?? '';
  if (callerPolicy.delegationMode !== 'allow') {
    logger.warn({ caller, target }, refusalLog.policy);
    return { ok: false, error: delegationForbidden(caller, callerProfile) };
  }
  const mode = modeOf(config, caller, target);
  if (!mode) {
    logger.warn({ caller, target }, refusalLog.reach);
    return { ok: false, error: unreachableText(config, target, caller) };
  }
  let policy: SecurityPolicy;
  try {
    policy = buildSecurityPolicy(config, target);
  } catch (err) {
    logger.warn({ caller, target, err: errorMessage(err) }, refusalLog.targetPolicy);
    return { ok: false, error: targetPolicyFailed(target, errorMessage(err)) };
  }
  const agentic = runtimeProfileFor(config, target).agentic;
  const refusal = alwaysAskRefusal(config, caller, target, mode, agentic, logger);
  if (refusal) return { ok: false, error: refusal };
  return { ok: true, value: { target, mode, agentic, policy } };
}

function alwaysAskRefusal(
  config: BatonConfig,
  caller: string,
  target: string,
  mode: DelegateMode,
  agentic: boolean,
  logger: Logger,
): string | null {
  const profile = riskProfileFor(config, target);
  const entries = (profile?.always_ask ?? []).map((e) => e.trim()).filter((e) => e !== '');
  if (!profile || entries.length === 0) return null;
  if (mode === 'independent' && !isCompleteRoute(profile.approval_route)) {
    logger.warn(
      { caller, target, error_key: 'delegate.independent_always_ask_unsupported' },
      refusalLog.independentAlwaysAsk,
    );
    return independentAlwaysAsk(target, caller, profile.name, entries);
  }
  if (mode === 'bounded' && agentic) {
    logger.warn(
      { caller, target, error_key: 'delegate.bounded_agentic_always_ask_unsupported' },
      refusalLog.boundedAlwaysAsk,
    );
    return boundedAgenticAlwaysAsk(target, caller, profile.name, entries);
  }
  return null;
}
