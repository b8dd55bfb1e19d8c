// Derived views of a loaded config that the rest of baton reads (roster, profiles, live channels).
import { agentOf, hasEntry } from './lookup.ts';
import type { BatonConfig, DelegateMode, RuntimeProfile } from './types.ts';

/** `max_tool_iterations = 0` means 10. */
export function effectiveMaxToolIterations(rp: Pick<RuntimeProfile, 'max_tool_iterations'>): number {
  return rp.max_tool_iterations === 0 ? 10 : rp.max_tool_iterations;
}

/** `max_delegation_depth = 0` (or no profile) means 3. */
export function effectiveMaxDelegationDepth(
  rp: Pick<RuntimeProfile, 'max_delegation_depth'> | undefined,
): number {
  return rp === undefined || rp.max_delegation_depth === 0 ? 3 : rp.max_delegation_depth;
}

/** The reachable delegate targets of `callerAlias`, ordered by alias (spec/delegate.md §4). */
export function reachableTargets(
  config: BatonConfig,
  callerAlias: string,
): { alias: string; mode: DelegateMode }[] {
  const caller = callerAlias.trim();
  const agent = agentOf(config, caller);
  if (agent === undefined) return [];
  const modes = new Map<string, DelegateMode>();

  const profile = agent.risk_profile.trim();
  if (agent.delegate_same_risk_profile && profile !== '') {
    for (const [alias, other] of Object.entries(config.agents)) {
      if (alias !== caller && other.enabled && other.risk_profile.trim() === profile)
        modes.set(alias, 'bounded');
    }
  }
  for (const entry of agent.delegates) {
    const target = entry.agent.trim();
    if (target === '' || target === caller || !agentOf(config, target)?.enabled) continue;
    // An explicit entry replaces a peer's implicit bounded mode.
    modes.set(target, entry.mode);
  }
  return [...modes]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([alias, mode]) => ({ alias, mode }));
}

/** `anthropic` for `"anthropic.primary"`; the whole (trimmed) reference when it has no dot. */
export function providerTypeOf(ref: string): string {
  const trimmed = ref.trim();
  const dot = trimmed.indexOf('.');
  return dot === -1 ? trimmed : trimmed.slice(0, dot);
}

/**
 * The channels that start (spec/config.md §12): when any agent declares `channels`, only enabled channels
 * listed by an enabled agent; otherwise every enabled channel. In config order.
 */
export function liveChannelKeys(config: BatonConfig): string[] {
  const agents = Object.values(config.agents);
  const enabled = Object.values(config.channels).filter((c) => c.enabled);
  if (!agents.some((a) => a.channels.length > 0)) return enabled.map((c) => c.key);
  const listed = new Set(agents.filter((a) => a.enabled).flatMap((a) => a.channels.map((k) => k.trim())));
  return enabled.filter((c) => listed.has(c.key)).map((c) => c.key);
}

/**
 * The channel key an `approver_channel` value names: `"<type>.<alias>"` as written, or a bare `"<type>"`
 * when exactly one enabled alias of that type exists. Undefined when it resolves to nothing.
 */
export function resolveApproverChannel(config: BatonConfig, value: string): string | undefined {
  const written = value.trim();
  if (written.includes('.')) return hasEntry(config.channels, written) ? written : undefined;
  const candidates = Object.values(config.channels).filter((c) => c.enabled && c.type === written);
  return candidates.length === 1 ? candidates[0]?.key : undefined;
}
