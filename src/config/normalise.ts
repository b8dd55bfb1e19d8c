// Step 4 of loading: turn the parsed sections into BatonConfig (refs, keys, merged lists, resolved paths).
import { resolve } from 'node:path';
import {
  DEFAULT_ALLOWED_COMMANDS,
  DEFAULT_AUTO_APPROVE,
  DEFAULT_FORBIDDEN_PATHS,
  DEFAULT_PROVIDER_URI,
} from './defaults.ts';
import { ownEntry } from './lookup.ts';
import type { AgentShape } from './schema-agents.ts';
import type { CronJobShape } from './schema-cron.ts';
import type { RiskProfileShape, RuntimeProfileShape } from './schema-profiles.ts';
import type { ProviderEntryShape } from './schema-providers.ts';
import type { SectionData } from './sections.ts';
import type {
  AgentConfig,
  BatonConfig,
  ChannelConfig,
  CronJobConfig,
  LiveRunKeys,
  ProviderEntry,
  RiskProfile,
  RuntimeProfile,
} from './types.ts';
import { defaultWorkspacePath } from './workspace-path.ts';

const unique = (items: readonly string[]): string[] => [...new Set(items)];
const trimAll = (items: readonly string[]): string[] => items.map((s) => s.trim());
const mapEntries = <A, B>(table: Record<string, A>, fn: (key: string, value: A) => B): Record<string, B> =>
  Object.fromEntries(Object.entries(table).map(([key, value]) => [key, fn(key, value)]));

export interface NormaliseInput {
  sections: SectionData;
  /** Relative paths (data_dir, workspace paths) resolve against it. */
  baseDir: string;
}

/** `secrets` is left empty: the loader fills it from credentials.ts (it holds the environment). */
export function normalise({ sections, baseDir }: NormaliseInput): BatonConfig {
  const dataDir = resolve(baseDir, sections.gateway.data_dir);
  const { cost } = sections;
  const config: BatonConfig = {
    schema_version: 3,
    redis: redisOf(sections.redis),
    gateway: {
      host: sections.gateway.host,
      port: sections.gateway.port,
      data_dir: dataDir,
      api_token: sections.gateway.api_token,
      health_detail: sections.gateway.health_detail,
      trusted_proxies: sections.gateway.trusted_proxies,
      web_users: sections.gateway.web_users,
    },
    worker: sections.worker,
    providers: providersOf(sections.providers.models),
    reliability: sections.reliability,
    delegate: sections.delegate,
    cost: {
      enabled: cost.enabled,
      daily_limit_usd: cost.daily_limit_usd,
      monthly_limit_usd: cost.monthly_limit_usd,
      warn_at_percent: cost.warn_at_percent,
      allow_override: cost.allow_override,
      track_per_agent: cost.track_per_agent,
      enforcement: {
        mode: cost.enforcement.mode,
        route_down_model: cost.enforcement.route_down_model?.trim(),
        reserve_percent: cost.enforcement.reserve_percent,
      },
      rates: { models: cost.rates.providers.models, tools: cost.rates.tools },
    },
    risk_profiles: mapEntries(sections.risk_profiles, riskProfileOf),
    runtime_profiles: mapEntries(sections.runtime_profiles, runtimeProfileOf),
    agents: mapEntries(sections.agents, (alias, agent) => agentOf(alias, agent, dataDir, baseDir)),
    channels: channelsOf(sections.channels),
    peer_groups: mapEntries(sections.peer_groups, (name, group) => ({
      name,
      channel: group.channel.trim(),
      agents: trimAll(group.agents),
      external_peers: trimAll(group.external_peers),
      ...(group.approvers ? { approvers: trimAll(group.approvers) } : {}),
    })),
    cron: mapEntries(sections.cron, cronJobOf),
    transcription: {
      provider: sections.transcription.provider?.trim() || undefined,
      model: sections.transcription.model.trim() || 'whisper-1',
    },
    secrets: [],
  };
  return config;
}

function redisOf(r: SectionData['redis']): BatonConfig['redis'] {
  const sentinels = r.sentinels?.map((s) => s.trim());
  const master = r.sentinel_master?.trim();
  return {
    url: r.url,
    prefix: r.prefix,
    sentinels,
    // Only with sentinels: a master name alone changes nothing (redis-rules.ts warns).
    sentinel_master: sentinels ? master : undefined,
    cluster_nodes: r.cluster_nodes,
    partitions: r.partitions ?? (r.cluster_nodes ? 16 : 1),
  };
}

function providersOf(
  models: Record<string, Record<string, ProviderEntryShape>>,
): Record<string, ProviderEntry> {
  const out: Record<string, ProviderEntry> = {};
  for (const [type, aliases] of Object.entries(models)) {
    for (const [alias, p] of Object.entries(aliases)) {
      const ref = `${type}.${alias}`;
      out[ref] = {
        ref,
        type,
        alias,
        model: p.model,
        uri: p.uri ?? ownEntry(DEFAULT_PROVIDER_URI, type),
        api_key: p.api_key,
        requires_openai_auth: p.requires_openai_auth,
        fallback: trimAll(p.fallback),
        fallback_models: p.fallback_models,
        temperature: p.temperature,
        timeout_secs: p.timeout_secs,
        max_tokens: p.max_tokens,
        native_tools: p.native_tools,
        context_window: p.context_window,
        extra_headers: p.extra_headers,
        vision: p.vision,
      };
    }
  }
  return out;
}

function riskProfileOf(name: string, p: RiskProfileShape): RiskProfile {
  const route = p.approval_route;
  return {
    name,
    level: p.level,
    // A full-autonomy profile is not confined to the workspace (spec/config.md §10).
    workspace_only: p.level === 'full' ? false : p.workspace_only,
    allowed_commands: p.allowed_commands ?? [...DEFAULT_ALLOWED_COMMANDS],
    forbidden_paths: p.forbidden_paths ?? [...DEFAULT_FORBIDDEN_PATHS],
    require_approval_for_medium_risk: p.require_approval_for_medium_risk,
    block_high_risk_commands: p.block_high_risk_commands,
    shell_env_passthrough: p.shell_env_passthrough,
    auto_approve: unique([...DEFAULT_AUTO_APPROVE, ...p.auto_approve]),
    always_ask: p.always_ask,
    allowed_roots: unique([...p.allowed_roots, ...(p.allowed_path ?? []), ...(p.allowed_paths ?? [])]),
    delegation_policy: { mode: p.delegation_policy.mode },
    allowed_tools: p.allowed_tools,
    excluded_tools: p.excluded_tools,
    deny_all_tools: p.deny_all_tools,
    approval_route: route && {
      approver_channel: route.approver_channel ?? '',
      approver_recipient: route.approver_recipient,
      on_no_approver: route.on_no_approver,
      timeout_secs: route.timeout_secs,
    },
    sandbox_enabled: p.sandbox_enabled,
    sandbox_backend: p.sandbox_backend,
    sandbox_allow: [...new Set(p.sandbox_allow)],
  };
}

function runtimeProfileOf(name: string, p: RuntimeProfileShape): RuntimeProfile {
  return {
    name,
    agentic: p.agentic,
    max_tool_iterations: p.max_tool_iterations,
    max_execution_tree_iterations: p.max_execution_tree_iterations,
    max_actions_per_hour: p.max_actions_per_hour,
    max_cost_per_day_cents: p.max_cost_per_day_cents,
    shell_timeout_secs: p.shell_timeout_secs,
    max_delegation_depth: p.max_delegation_depth,
    delegation_timeout_secs: p.delegation_timeout_secs,
    agentic_timeout_secs: p.agentic_timeout_secs,
    parallel_tools: p.parallel_tools,
    tool_call_dedup_exempt: p.tool_call_dedup_exempt,
    strict_tool_parsing: p.strict_tool_parsing,
    max_tool_result_chars: p.max_tool_result_chars,
    max_context_tokens: p.max_context_tokens,
    max_history_messages: p.max_history_messages,
    thinking: p.thinking && {
      default_level: p.thinking.default_level,
      native_thinking: p.thinking.native_thinking,
    },
    tool_receipts: p.tool_receipts && { enabled: p.tool_receipts.enabled },
  };
}

function agentOf(alias: string, a: AgentShape, dataDir: string, baseDir: string): AgentConfig {
  const readMemoryFrom = trimAll(a.workspace.read_memory_from);
  // The agent's own memory is always readable; appended so the indices of written entries stay as written.
  if (!readMemoryFrom.includes(alias)) readMemoryFrom.push(alias);
  return {
    alias,
    enabled: a.enabled,
    channels: trimAll(a.channels),
    model_provider: a.model_provider.trim(),
    risk_profile: a.risk_profile.trim(),
    runtime_profile: a.runtime_profile.trim(),
    delegate_same_risk_profile: a.delegate_same_risk_profile,
    delegates: a.delegates.map((d) => ({ agent: d.agent.trim(), mode: d.mode })),
    cron_jobs: trimAll(a.cron_jobs),
    workspace: {
      path:
        a.workspace.path === undefined
          ? defaultWorkspacePath(dataDir, alias)
          : resolve(baseDir, a.workspace.path),
      access: a.workspace.access,
      unrestricted_filesystem: a.workspace.unrestricted_filesystem,
      read_memory_from: readMemoryFrom,
    },
  };
}

/** live.md §5: the same keys on every channel type, web included. */
function liveRunKeysOf(c: LiveRunKeys): LiveRunKeys {
  return {
    background_notices: c.background_notices,
    streaming: c.streaming,
    stream_after_ms: c.stream_after_ms,
    stream_edit_interval_ms: c.stream_edit_interval_ms,
    progress: c.progress,
    progress_after_ms: c.progress_after_ms,
  };
}

function channelsOf(channels: SectionData['channels']): Record<string, ChannelConfig> {
  const out: Record<string, ChannelConfig> = {};
  const common = (c: SectionData['channels']['telegram'][string]) => ({
    enabled: c.enabled,
    bot_token: c.bot_token,
    mention_only: c.mention_only,
    approval_timeout_secs: c.approval_timeout_secs,
    excluded_tools: c.excluded_tools,
    reply_min_interval_secs: c.reply_min_interval_secs,
    max_attachment_mb: c.max_attachment_mb,
    ...liveRunKeysOf(c),
    api_base_url: c.api_base_url,
  });
  for (const [alias, c] of Object.entries(channels.telegram)) {
    const key = `telegram.${alias}`;
    out[key] = {
      type: 'telegram',
      key,
      alias,
      ...common(c),
      webhook_url: c.webhook_url,
      webhook_secret: c.webhook_secret,
    };
  }
  for (const [alias, c] of Object.entries(channels.discord)) {
    const key = `discord.${alias}`;
    out[key] = {
      type: 'discord',
      key,
      alias,
      ...common(c),
      guild_ids: c.guild_ids,
      channel_ids: c.channel_ids,
    };
  }
  for (const [alias, c] of Object.entries(channels.slack)) {
    const key = `slack.${alias}`;
    out[key] = {
      type: 'slack',
      key,
      alias,
      ...common(c),
      app_token: c.app_token,
      signing_secret: c.signing_secret,
      channel_ids: c.channel_ids,
      thread_replies: c.thread_replies,
    };
  }
  for (const [alias, c] of Object.entries(channels.web)) {
    const key = `web.${alias}`;
    out[key] = {
      type: 'web',
      key,
      alias,
      enabled: c.enabled,
      bot_token: undefined,
      mention_only: c.mention_only,
      approval_timeout_secs: c.approval_timeout_secs,
      excluded_tools: c.excluded_tools,
      reply_min_interval_secs: c.reply_min_interval_secs,
      max_attachment_mb: c.max_attachment_mb,
      ...liveRunKeysOf(c),
      title: c.title,
    };
  }
  return out;
}

function cronJobOf(alias: string, j: CronJobShape): CronJobConfig {
  return {
    alias,
    name: j.name,
    job_type: j.job_type,
    schedule: j.schedule,
    prompt: j.prompt,
    command: j.command,
    // baton never runs shell jobs; marking them disabled keeps every consumer from scheduling one.
    enabled: j.job_type === 'shell' ? false : j.enabled,
    model: j.model,
    allowed_tools: j.allowed_tools,
    uses_memory: j.uses_memory,
    session_target: j.session_target,
    delivery: j.delivery && { channel: j.delivery.channel.trim(), recipient: j.delivery.recipient },
  };
}
