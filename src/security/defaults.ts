// Built-in security defaults: runtime-profile fallbacks and ZeroClaw's default command and path lists.

/** Used when `agents.<a>.runtime_profile` is empty or names nothing (config.md §11). */
export const RUNTIME_DEFAULTS = {
  max_actions_per_hour: 20,
  max_cost_per_day_cents: 500,
  shell_timeout_secs: 60,
} as const;

/** ZeroClaw's default `allowed_commands` (config.md §10: at least git, npm, cargo, ls, cat, grep). */
export const DEFAULT_ALLOWED_COMMANDS: readonly string[] = [
  'git',
  'npm',
  'cargo',
  'ls',
  'cat',
  'grep',
  'find',
  'echo',
  'pwd',
  'wc',
  'head',
  'tail',
  'date',
];

/**
 * ZeroClaw's default `forbidden_paths`. Broad system prefixes such as `/home` and `/tmp` do not lock an
 * agent out of a workspace or allowed root that lies under them: the more specific grant wins (path-guard.ts).
 */
export const DEFAULT_FORBIDDEN_PATHS: readonly string[] = [
  '/etc',
  '/root',
  '/home',
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/opt',
  '/boot',
  '/dev',
  '/proc',
  '/sys',
  '/var',
  '/tmp',
  '/mnt',
  '~/.ssh',
  '~/.gnupg',
  '~/.aws',
  '~/.config',
];
