// The one way to find a named config entry: agent → risk profile → runtime profile → provider, channel, cron job.
// Config tables are plain objects, so `table[name]` also finds inherited members: a model or a Redis record naming
// `constructor`, `toString` or `__proto__` would "resolve". Every lookup here reads own entries only.
import { DEFAULT_RUNTIME_PROFILE } from './defaults.ts';
import type {
  AgentConfig,
  BatonConfig,
  ChannelConfig,
  CostConfig,
  CronJobConfig,
  ModelRate,
  ProviderEntry,
  RiskProfile,
  RuntimeProfile,
} from './types.ts';

/** The entry stored under `key` itself, never an inherited property; an empty key names nothing. */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return key !== '' && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Whether `key` names an own entry of `table`. */
export function hasEntry(table: object, key: string): boolean {
  return key !== '' && Object.hasOwn(table, key);
}

/** `[agents.<alias>]`; the alias is trimmed. */
export function agentOf(config: BatonConfig, alias: string): AgentConfig | undefined {
  return ownEntry(config.agents, alias.trim());
}

/** The agent's `risk_profile` entry, or undefined when the agent or its profile resolves to nothing. */
export function riskProfileFor(config: BatonConfig, agentAlias: string): RiskProfile | undefined {
  const name = agentOf(config, agentAlias)?.risk_profile.trim() ?? '';
  return ownEntry(config.risk_profiles, name);
}

/** The agent's `runtime_profile` entry; the runtime defaults (config.md §11) when it is empty or names nothing. */
export function runtimeProfileFor(config: BatonConfig, agentAlias: string): RuntimeProfile {
  const name = agentOf(config, agentAlias)?.runtime_profile.trim() ?? '';
  return (
    ownEntry(config.runtime_profiles, name) ?? { ...DEFAULT_RUNTIME_PROFILE, tool_call_dedup_exempt: [] }
  );
}

/** `[providers.models.<type>.<alias>]` by its `<type>.<alias>` reference (trimmed). */
export function providerOf(config: Pick<BatonConfig, 'providers'>, ref: string): ProviderEntry | undefined {
  return ownEntry(config.providers, ref.trim());
}

/** `[channels.<type>.<alias>]` by its `<type>.<alias>` key (trimmed). */
export function channelOf(config: BatonConfig, key: string): ChannelConfig | undefined {
  return ownEntry(config.channels, key.trim());
}

/** `[cron.<alias>]` (trimmed). */
export function cronJobOf(config: BatonConfig, alias: string): CronJobConfig | undefined {
  return ownEntry(config.cron, alias.trim());
}

/** `[cost.rates.providers.models.<type>."<model-id>"]`: the price of one model, if configured. */
export function modelRateOf(rates: CostConfig['rates'], type: string, model: string): ModelRate | undefined {
  const ofType = ownEntry(rates.models, type);
  return ofType === undefined ? undefined : ownEntry(ofType, model);
}

/** `[cost.rates.tools.<tool>].per_call` in USD; 0 when the tool has no rate. */
export function toolRateOf(rates: CostConfig['rates'], tool: string): number {
  return ownEntry(rates.tools, tool)?.per_call ?? 0;
}

/** A route with an approver channel and recipient: an independent delegate asks it (approvals.md §7). */
export function isCompleteRoute(route: { approver_channel: string; approver_recipient: string } | undefined) {
  return !!route && route.approver_channel.trim() !== '' && route.approver_recipient.trim() !== '';
}
