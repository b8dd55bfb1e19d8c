// The validated config after defaults: the shape every other module reads. Keys mirror spec/config.md.

export type Autonomy = 'readonly' | 'supervised' | 'full';

/** Every `sandbox_backend` value that loads; baton runs only `auto`, `bubblewrap` and `none` (config.md §10). */
export const SANDBOX_BACKEND_VALUES = [
  'auto',
  'bubblewrap',
  'none',
  'firejail',
  'landlock',
  'docker',
] as const;
export type SandboxBackendValue = (typeof SANDBOX_BACKEND_VALUES)[number];
export const SUPPORTED_SANDBOX_BACKENDS: readonly SandboxBackendValue[] = ['auto', 'bubblewrap', 'none'];

export interface ProviderEntry {
  /** `<type>.<alias>`, e.g. `anthropic.primary`. */
  ref: string;
  type: string;
  alias: string;
  model: string | undefined;
  uri: string | undefined;
  api_key: string | undefined;
  requires_openai_auth: boolean;
  fallback: string[];
  fallback_models: string[];
  temperature: number | undefined;
  timeout_secs: number | undefined;
  max_tokens: number | undefined;
  native_tools: boolean | undefined;
  context_window: number | undefined;
  extra_headers: Record<string, string>;
  /** media.md §3: explicit image support; undefined: baton's table of known models decides. */
  vision: boolean | undefined;
}

export interface TranscriptionConfig {
  /** `<type>.<alias>` of the provider whose OpenAI-compatible `/audio/transcriptions` is used; none: off. */
  provider: string | undefined;
  model: string;
}

export interface ReliabilityConfig {
  provider_retries: number;
  provider_backoff_ms: number;
  scheduler_retries: number;
}

export interface DelegateDefaults {
  timeout_secs: number;
  agentic_timeout_secs: number;
}

export interface CostConfig {
  enabled: boolean;
  daily_limit_usd: number;
  monthly_limit_usd: number;
  warn_at_percent: number;
  allow_override: boolean;
  track_per_agent: boolean;
  enforcement: {
    mode: 'warn' | 'block' | 'route_down';
    route_down_model: string | undefined;
    reserve_percent: number;
  };
  rates: {
    /** `models[<type>][<model id>]` */
    models: Record<string, Record<string, ModelRate>>;
    tools: Record<string, { per_call: number }>;
  };
}

export interface ModelRate {
  input_per_mtok: number;
  output_per_mtok: number;
  cached_input_per_mtok: number;
}

export interface ApprovalRoute {
  approver_channel: string;
  approver_recipient: string;
  on_no_approver: 'deny' | 'inherit-originator';
  timeout_secs: number;
}

export interface RiskProfile {
  name: string;
  level: Autonomy;
  workspace_only: boolean;
  allowed_commands: string[];
  forbidden_paths: string[];
  require_approval_for_medium_risk: boolean;
  block_high_risk_commands: boolean;
  shell_env_passthrough: string[];
  /** Already merged with the default entries and de-duplicated. */
  auto_approve: string[];
  always_ask: string[];
  allowed_roots: string[];
  delegation_policy: { mode: 'forbidden' | 'allow' };
  allowed_tools: string[];
  excluded_tools: string[];
  deny_all_tools: boolean;
  approval_route: ApprovalRoute | undefined;
  sandbox_enabled: boolean | undefined;
  /** As written; an unsupported value means "auto" (see SUPPORTED_SANDBOX_BACKENDS). */
  sandbox_backend: SandboxBackendValue;
  sandbox_allow: 'network'[];
}

export interface RuntimeProfile {
  name: string;
  agentic: boolean;
  /** Raw value; 0 means 10 (see effectiveMaxToolIterations). */
  max_tool_iterations: number;
  max_execution_tree_iterations: number | undefined;
  max_actions_per_hour: number;
  max_cost_per_day_cents: number;
  shell_timeout_secs: number;
  /** Raw value; 0 means 3. */
  max_delegation_depth: number;
  delegation_timeout_secs: number | undefined;
  agentic_timeout_secs: number | undefined;
  parallel_tools: boolean;
  tool_call_dedup_exempt: string[];
  strict_tool_parsing: boolean;
  max_tool_result_chars: number | undefined;
  /** Caps the estimated tokens of each model request (history-window.ts); unset = the model's window only. */
  max_context_tokens: number | undefined;
  /** Caps the earlier messages sent with a request; unset = 50. */
  max_history_messages: number | undefined;
  thinking: { default_level: string | undefined; native_thinking: boolean | undefined } | undefined;
  tool_receipts: { enabled: boolean } | undefined;
}

export type DelegateMode = 'bounded' | 'independent';

export interface DelegateEntry {
  /** Trimmed alias. */
  agent: string;
  mode: DelegateMode;
}

export type WorkspaceAccess = 'read' | 'write' | 'read_write';

export interface AgentConfig {
  alias: string;
  enabled: boolean;
  channels: string[];
  model_provider: string;
  risk_profile: string;
  runtime_profile: string;
  delegate_same_risk_profile: boolean;
  delegates: DelegateEntry[];
  cron_jobs: string[];
  workspace: {
    /** Resolved: defaults to `<gateway.data_dir>/workspaces/<alias>`. */
    path: string;
    access: Record<string, WorkspaceAccess>;
    unrestricted_filesystem: boolean;
    read_memory_from: string[];
  };
}

interface ChannelCommon extends LiveRunKeys {
  /** `<type>.<alias>` */
  key: string;
  alias: string;
  enabled: boolean;
  bot_token: string | undefined;
  mention_only: boolean;
  approval_timeout_secs: number;
  excluded_tools: string[];
  reply_min_interval_secs: number;
  /** media.md §3: the largest file downloaded or sent on this channel, in MiB. */
  max_attachment_mb: number;
}

/** A channel's live-run keys (live.md §5). */
export interface LiveRunKeys {
  /** §4: a notice in the chat when a background task it started ends. */
  background_notices: boolean;
  /** §2: the answer grows in a preview message, or is sent once. */
  streaming: 'partial' | 'off';
  stream_after_ms: number;
  /** §2, §3: the least time between two edits in one chat (0 on the web: not throttled). */
  stream_edit_interval_ms: number;
  progress: 'compact' | 'verbose' | 'off';
  progress_after_ms: number;
}

export interface TelegramChannelConfig extends ChannelCommon {
  type: 'telegram';
  api_base_url: string;
  /** Webhook mode when set: the public URL Telegram POSTs updates to. */
  webhook_url: string | undefined;
  webhook_secret: string | undefined;
}
export interface DiscordChannelConfig extends ChannelCommon {
  type: 'discord';
  api_base_url: string;
  guild_ids: string[];
  channel_ids: string[];
}
export interface SlackChannelConfig extends ChannelCommon {
  type: 'slack';
  api_base_url: string;
  app_token: string | undefined;
  signing_secret: string | undefined;
  channel_ids: string[];
  thread_replies: boolean;
}
/** The browser chat served at /chat/<alias>; `bot_token` is always undefined (none is needed). */
export interface WebChannelConfig extends ChannelCommon {
  type: 'web';
  /** Shown in the page header. */
  title: string;
}
export type ChannelConfig =
  | TelegramChannelConfig
  | DiscordChannelConfig
  | SlackChannelConfig
  | WebChannelConfig;

export interface PeerGroup {
  name: string;
  channel: string;
  agents: string[];
  external_peers: string[];
  /** Who may answer approvals for these agents on this channel; absent: `external_peers` (talking never uses it). */
  approvers?: string[];
}

export type CronSchedule =
  | { kind: 'cron'; expr: string; tz: string }
  | { kind: 'every'; every_ms: number }
  | { kind: 'at'; at: string };

export interface CronJobConfig {
  alias: string;
  name: string;
  job_type: 'shell' | 'agent';
  schedule: CronSchedule;
  prompt: string;
  command: string | undefined;
  enabled: boolean;
  model: string | undefined;
  allowed_tools: string[] | undefined;
  uses_memory: boolean;
  session_target: 'isolated' | 'main';
  delivery: { channel: string; recipient: string } | undefined;
}

export interface WebUserEntry {
  /** scrypt hash of the user's secret (src/web/users/web-secret.ts). */
  secret_hash: string;
  /** May edit the config from the dashboard and sees every agent's sessions, tasks and approvals. */
  operator: boolean;
}

export interface BatonConfig {
  schema_version: 3;
  /** A RedisTarget (core/redis-target.ts) plus the key prefix and partition count. */
  redis: {
    url: string;
    prefix: string;
    sentinels: string[] | undefined;
    sentinel_master: string | undefined;
    cluster_nodes: string[] | undefined;
    /** 1 with url or sentinels, 16 with cluster_nodes unless set (§15.1). */
    partitions: number;
  };
  gateway: {
    host: string;
    port: number;
    data_dir: string;
    api_token: string | undefined;
    /** With api_token: `token` (default) shows /healthz details and /metrics only to the bearer. */
    health_detail?: 'public' | 'token';
    /** Proxy addresses/CIDRs whose X-Forwarded-* headers are believed (Fastify trustProxy); [] = none. */
    trusted_proxies?: string[];
    /** Per-user web credentials by login (`baton web add-user` writes them). */
    web_users?: Record<string, WebUserEntry>;
  };
  worker: {
    concurrency: number;
    background_concurrency: number;
    shutdown_grace_secs: number;
    /** Entries of a session's stored transcript kept (the newest); the model's window is max_history_messages. */
    transcript_max_entries: number;
  };
  /** Keyed by `<type>.<alias>`. */
  providers: Record<string, ProviderEntry>;
  reliability: ReliabilityConfig;
  delegate: DelegateDefaults;
  cost: CostConfig;
  risk_profiles: Record<string, RiskProfile>;
  runtime_profiles: Record<string, RuntimeProfile>;
  agents: Record<string, AgentConfig>;
  /** Keyed by `<type>.<alias>`. */
  channels: Record<string, ChannelConfig>;
  peer_groups: Record<string, PeerGroup>;
  cron: Record<string, CronJobConfig>;
  /** media.md §3: voice notes are transcribed when `provider` names a configured provider. */
  transcription: TranscriptionConfig;
  /** Every interpolated `${VAR}` value, so logs can redact them. */
  secrets: string[];
}

export type Severity = 'error' | 'warning';

export interface Diagnostic {
  severity: Severity;
  /** Full TOML path, e.g. `agents.main.delegates[1].mode`. */
  path: string;
  /** The exact spec text, e.g. `Invalid config at 'x': expected integer, found float`. */
  message: string;
}
