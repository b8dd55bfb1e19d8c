// baton's built-in defaults: auto_approve entries, shell allowlist, forbidden paths (spec/config.md §10), the runtime
// defaults (§11) and the one table of provider defaults (§6.1).
import type { RuntimeProfile } from './types.ts';

/** Merged into every risk profile's auto_approve, even when the file writes `auto_approve = []` [kept]. */
export const DEFAULT_AUTO_APPROVE: readonly string[] = [
  'file_read',
  'memory_recall',
  'web_search_tool',
  'web_fetch',
  'calculator',
  'glob_search',
  'content_search',
  'image_info',
  'weather',
  'tool_search',
  'browser',
  'browser_open',
];

/** Read-mostly developer commands; anything that installs, deletes or escalates must be listed explicitly. */
export const DEFAULT_ALLOWED_COMMANDS: readonly string[] = [
  'git',
  'npm',
  'cargo',
  'ls',
  'cat',
  'grep',
  'echo',
  'pwd',
  'head',
  'tail',
  'wc',
  'find',
  'date',
  'node',
  'python3',
  'sort',
  'uniq',
  'diff',
];

/** System and credential locations no file or shell tool should touch. */
export const DEFAULT_FORBIDDEN_PATHS: readonly string[] = [
  '/etc',
  '/root',
  '/proc',
  '/sys',
  '/boot',
  '/dev',
  '/var/run',
  '/run',
  '~/.ssh',
  '~/.aws',
  '~/.gnupg',
  '~/.kube',
  '~/.docker',
  '~/.config/gcloud',
  '~/.netrc',
  '~/.npmrc',
];

/** `uri` default per provider type; `custom` has none (spec/config.md §6.1). */
export const DEFAULT_PROVIDER_URI: Readonly<Record<string, string>> = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com/v1',
  openrouter: 'https://openrouter.ai/api/v1',
  ollama: 'http://localhost:11434',
};

/** Environment variable holding a type's default credential; `ollama` and `custom` have none. */
export const DEFAULT_CREDENTIAL_ENV: Readonly<Record<string, string>> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
  openrouter: 'OPENROUTER_API_KEY',
};

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
