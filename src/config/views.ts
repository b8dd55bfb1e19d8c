// Derived views of a loaded config that the rest of baton reads (roster, profiles, live channels).
import { DEFAULT_CREDENTIAL_ENV } from './defaults.ts';
import type { BatonConfig, DelegateMode, ProviderEntry, RiskProfile, RuntimeProfile } from './types.ts';

/** The runtime defaults (spec/config.md §11), used when an agent's runtime_profile is empty or names nothing. */
export const DEFAULT_RUNTIME_PROFILE: Readonly<RuntimeProfile> = Object.freeze({
  name: '',
  agentic: false,
  max_tool_iterations: 0,
  max_execution_tree_iterations: undefined,
  max_actions_per_hour: 20,
  max_cost_per_day_cents: 500,
  shell_timeout_secs: 60,
  max_delegation_depth: 0,
  delegation_timeout_secs: undefined,
  agentic_timeout_secs: undefined,
  parallel_tools: false,
  tool_call_dedup_exempt: [],
  strict_tool_parsing: false,
  max_tool_result_chars: undefined,
  max_context_tokens: undefined,
  max_history_messages: undefined,
  thinking: undefined,
  tool_receipts: undefined,
});

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

export function runtimeProfileFor(config: BatonConfig, agentAlias: string): RuntimeProfile {
  const name = config.agents[agentAlias.trim()]?.runtime_profile.trim() ?? '';
  const profile = name === '' ? undefined : config.runtime_profiles[name];
  return profile ?? { ...DEFAULT_RUNTIME_PROFILE, tool_call_dedup_exempt: [] };
}

export function riskProfileFor(config: BatonConfig, agentAlias: string): RiskProfile | undefined {
  const name = config.agents[agentAlias.trim()]?.risk_profile.trim() ?? '';
  return name === '' ? undefined : config.risk_profiles[name];
}

/** The reachable delegate targets of `callerAlias`, ordered by alias (spec/delegate.md §4). */
export function reachableTargets(
  config: BatonConfig,
  callerAlias: string,
): { alias: string; mode: DelegateMode }[] {
  const caller = callerAlias.trim();
  const agent = Object.hasOwn(config.agents, caller) ? config.agents[caller] : undefined;
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
    if (target === '' || target === caller || !Object.hasOwn(config.agents, target)) continue;
    if (!config.agents[target]?.enabled) continue;
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
 * The credential a provider entry uses: its own `api_key`, else its type's default environment variable.
 * An OAuth-style entry (`requires_openai_auth`) never inherits the default [kept].
 */
export function effectiveApiKey(
  entry: Pick<ProviderEntry, 'type' | 'api_key' | 'requires_openai_auth'>,
  env: Record<string, string | undefined>,
): string | undefined {
  if (entry.api_key !== undefined || entry.requires_openai_auth) return entry.api_key;
  const name = DEFAULT_CREDENTIAL_ENV[entry.type];
  return name === undefined ? undefined : env[name];
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
  if (written.includes('.')) return Object.hasOwn(config.channels, written) ? written : undefined;
  const candidates = Object.values(config.channels).filter((c) => c.enabled && c.type === written);
  return candidates.length === 1 ? candidates[0]?.key : undefined;
}
