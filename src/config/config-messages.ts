// Every diagnostic text of spec/config.md §2, §3, §5 and §7–§16, in one place so tests quote the spec once.
import { formatPath, type ValueKind } from './toml-path.ts';

export const invalid = (path: string, reason: string): string => `Invalid config at '${path}': ${reason}`;
export const unknownKey = (path: string): string => `Unknown config key '${path}' (ignored)`;
export const warningText = (path: string, reason: string): string => `Config warning at '${path}': ${reason}`;

// --- reasons (the part after `Invalid config at '<path>': `) ---
export const typeReason = (expected: string, found: ValueKind): string =>
  `expected ${expected}, found ${found}`;
export const enumReason = (options: readonly string[], value: string): string =>
  `expected one of ${options.map((o) => `"${o}"`).join(', ')}, found "${value}"`;
export const NOT_NEGATIVE = 'must not be negative';
export const NOT_POSITIVE = 'must be greater than 0';
/** A required key is missing (the spec gives no text for the generic case). */
export const REQUIRED = 'required';
export const atLeast = (min: number): string => `must be at least ${min}`;
export const between = (min: number, max: number): string => `must be between ${min} and ${max}`;
export const envNotSet = (name: string): string => `environment variable ${name} is not set`;
export const unsupportedSchemaVersion = (n: string): string =>
  `unsupported schema_version ${n} (baton supports 3)`;
export const TREE_ITERATIONS_AT_LEAST_1 =
  'must be at least 1 (omit the key to disable the execution-tree budget)';
export const DELEGATE_UNKNOWN_FIELD = 'unknown field (expected "agent" or "mode")';
export const ROUTE_DOWN_MODEL_REQUIRED = 'required when mode is "route_down"';
export const APPROVER_CHANNEL_REQUIRED = 'required when approval_route is present';
export const BOT_TOKEN_REQUIRED = 'required when the channel is enabled';
export const SLACK_MODE_REQUIRED = 'set app_token (Socket Mode) or signing_secret (HTTP mode)';
export const WEBHOOK_SECRET_REQUIRED = 'required when webhook_url is set';
export const TELEGRAM_SECRET_PATTERN = 'must be 1 to 256 characters of A-Z, a-z, 0-9, _ and -';
export const STREAM_INTERVAL_WEB = 'must be 0 (not throttled) or at least 250';
export const telegramWebhookUrl = (alias: string): string =>
  `expected an http(s) URL whose path ends with /telegram/${alias}/webhook (the route baton serves)`;
export const API_TOKEN_REQUIRED = 'required when gateway.host is not a loopback address';
export const API_TOKEN_REQUIRED_BEHIND_PROXY =
  'required when gateway.trusted_proxies is set (a proxy makes every request look local)';
export const TRUSTED_PROXY_FORM = 'expected an IP address or CIDR range, e.g. "10.0.0.5" or "10.0.0.0/8"';
export const SECRET_HASH_FORM =
  'expected a hash written by `baton web add-user` (scrypt$15$8$1$<salt>$<hash>)';
export const WEB_LOGIN_RESERVED = 'is reserved (the api_token sign-in and the loopback user)';
export const REDIS_PREFIX_PATTERN = 'must match [A-Za-z0-9_-]+';
export const SENTINEL_FORM = 'expected "host:port", e.g. "10.0.0.5:26379"';
export const CLUSTER_NODE_FORM = 'expected a redis:// or rediss:// URL, e.g. "redis://10.0.0.5:6379"';
export const LIST_EMPTY = 'must not be empty';
export const CLUSTER_DATABASE =
  'a Redis Cluster has database 0 only: leave the database number out of the URL';
export const CLUSTER_NODES_DISAGREE =
  'must use the same scheme, username and password as redis.cluster_nodes[0] (one client connects to every node)';
export const SENTINELS_AND_CLUSTER = 'set either sentinels or cluster_nodes, not both';
export const SENTINEL_MASTER_REQUIRED = 'required when sentinels is set';
export const SENTINEL_MASTER_UNUSED = 'ignored without sentinels';
/** A table key used as an id (ids.ts), e.g. `agent alias must match [A-Za-z0-9_-]+`. */
export const idPattern = (kind: string, pattern: string): string => `${kind} must match ${pattern}`;
export const RFC3339_REQUIRED = 'expected an RFC 3339 date-time';
export const unknownTimeZone = (tz: string): string => `unknown time zone "${tz}"`;

// --- semantic warnings (the part after `Config warning at '<path>': `) ---
export const SCHEMA_VERSION_MISSING = 'missing; assuming 3';
export const notConfigured = (ref: string): string => `"${ref}" is not configured`;
export const runtimeProfileNotConfigured = (name: string): string =>
  `"${name}" is not configured; runtime defaults apply`;
export const fallbackNotConfigured = (ref: string): string => `"${ref}" is not configured; skipped`;
export const approverChannelNotLive = (key: string): string =>
  `channel "${key}" is not configured, not enabled or not listed by an enabled agent, so approvals routed to it will fail`;
export const sandboxBackendUnsupported = (value: string): string =>
  `"${value}" is not supported by baton; using "auto"`;
export const RECEIPTS_UNSUPPORTED = 'tool receipts are not supported by baton; no receipts are produced';
export const SHELL_JOB_UNSUPPORTED = '"shell" jobs are not supported by baton; job disabled';
export const credentialTooShort = (path: string, min: number): string =>
  warningText(
    path,
    `credential is shorter than ${min} characters, too short to redact safely from replies, tool results and API responses; use a longer one`,
  );
export const bareEntryNotAnId = (entry: string, type: string): string =>
  type === 'web'
    ? `"${entry}" is not a web user id and matches no one; write "web:${entry}"`
    : `"${entry}" is not a ${type} user id and matches no one (a bare entry matches ids only); write "@${entry}" for a username`;
export const CRON_NOT_LISTED = "not listed in any agent's cron_jobs; job will not run";

// --- §16 cross-reference errors (full texts, each begins with the path) ---
const entry = (a: string, key: string, i: number): string => formatPath(['agents', a, key, i]);
export const delegateEmpty = (a: string, i: number): string =>
  `${entry(a, 'delegates', i)}.agent is empty; remove it or name a configured agent`;
export const delegateSelf = (a: string, i: number, t: string): string =>
  `${entry(a, 'delegates', i)}.agent = "${t}" names this agent itself; an agent cannot delegate to itself`;
export const delegateDangling = (a: string, i: number, t: string): string =>
  `${entry(a, 'delegates', i)}.agent = "${t}" but ${formatPath(['agents', t])} is not configured`;
export const delegateDuplicate = (a: string, i: number, t: string): string =>
  `${entry(a, 'delegates', i)}.agent = "${t}" duplicates an earlier delegate target`;
/** A window larger than the stored transcript could never be filled: said, not silently capped. */
export const historyWindowExceedsTranscript = (p: string, window: number, kept: number): string =>
  `${formatPath(['runtime_profiles', p, 'max_history_messages'])} = ${window} exceeds worker.transcript_max_entries = ${kept}: the model cannot be sent more messages than a session keeps`;
export const riskProfileMissing = (a: string): string =>
  `${formatPath(['agents', a, 'risk_profile'])} must reference a configured [risk_profiles.<alias>] entry`;
/** `ref` is `<type>.<alias>` as written, so `channels.<ref>` reads `channels.<type>.<alias>`. */
export const channelMissing = (a: string, i: number, ref: string): string =>
  `${entry(a, 'channels', i)} = "${ref}" but channels.${ref} is not configured`;
export const cronJobMissing = (a: string, i: number, j: string): string =>
  `${entry(a, 'cron_jobs', i)} = "${j}" but ${formatPath(['cron', j])} is not configured`;

// --- [transcription] (media.md §3) ---
export const transcriptionProviderMissing = (ref: string): string =>
  `transcription.provider = "${ref}" but ${formatPath(['providers', 'models', ...ref.split('.')])} is not configured`;
export const transcriptionProviderAnthropic = (ref: string): string =>
  `transcription.provider = "${ref}" is an anthropic provider, which has no OpenAI-compatible /audio/transcriptions endpoint`;

// --- outside the diagnostics proper ---
export const cannotReadFile = (path: string, reason: string): string =>
  `Cannot read config file '${path}': ${reason}`;
