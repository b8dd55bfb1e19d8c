// Every refusal and error text of the security layer (policy, narrowing validator, command and path policy).
import type { Autonomy } from '../config/types.ts';

// --- policy resolution (subagents.md §4 step 5) ---
export const noAgentText = (alias: string) => `no agent configured under alias "${alias}"`;
export const noRiskProfileText = (alias: string) =>
  `agents.${alias} has no resolvable risk_profile (load-time validation should have caught this)`;

// --- tool refusals shared by acting tools (subagents.md §4 step 4) ---
export const readOnlyRefusal = (tool: string) => `Security policy: read-only mode, cannot perform '${tool}'`;
export const RATE_LIMIT_EXCEEDED = 'Rate limit exceeded: action budget exhausted';

// --- narrowing validator (subagents.md §10), in check order ---
const AUTONOMY_NAMES: Record<Autonomy, string> = {
  readonly: 'ReadOnly',
  supervised: 'Supervised',
  full: 'Full',
};
export const autonomyName = (a: Autonomy) => AUTONOMY_NAMES[a];

export const escalation = {
  autonomy: (child: Autonomy, parent: Autonomy) =>
    `subagent autonomy=${autonomyName(child)} exceeds parent's ${autonomyName(parent)}`,
  allowedRoot: (p: string) =>
    `subagent allowed_roots entry "${p}" is not contained within any of the parent's allowed_roots entries`,
  readOnlyRoot: (p: string) =>
    `subagent allowed_roots_read_only entry "${p}" is not contained within the parent's allowed_roots or allowed_roots_read_only`,
  writeOnlyRoot: (p: string) =>
    `subagent allowed_roots_write_only entry "${p}" is not contained within the parent's allowed_roots or allowed_roots_write_only`,
  command: (cmd: string) =>
    `subagent allowed_commands entry "${cmd}" is not present on the parent's allowed_commands`,
  workspaceOnly: () => 'subagent attempts to disable workspace_only but the parent enforces it',
  forbiddenPath: (p: string) => `subagent drops forbidden_paths entry "${p}" that the parent enforces`,
  envPassthrough: (v: string) =>
    `subagent shell_env_passthrough entry "${v}" is not present on the parent's list`,
  maxActions: (c: number, p: number) => `subagent max_actions_per_hour=${c} exceeds parent's ${p}`,
  maxCost: (c: number, p: number) => `subagent max_cost_per_day_cents=${c} exceeds parent's ${p}`,
  shellTimeout: (c: number, p: number) => `subagent shell_timeout_secs=${c} exceeds parent's ${p}`,
  blockHighRisk: () => 'subagent attempts to set block_high_risk_commands=false but the parent enforces it',
  requireApproval: () =>
    'subagent attempts to set require_approval_for_medium_risk=false but the parent enforces it',
} as const;

export const memoryAllowlistEscalation = (alias: string) =>
  `subagent allowlist override contains alias "${alias}" not present on parent's memory allowlist; SubAgent overrides may only narrow`;

// --- shell command policy (baton's own texts) ---
export const command = {
  empty: () => "Missing or empty 'command' parameter",
  unterminatedQuote: () => 'Command has an unterminated quote',
  danglingEscape: () => 'Command ends with a lone backslash',
  metachar: (what: string) =>
    `Command contains ${what}, which needs a shell; commands run without a shell, so run one simple command (no ;, &&, ||, |, &, redirections, $(...), backticks or newlines)`,
  expansion: () =>
    'Command uses shell variable expansion ($NAME, $1 and the like); commands run without a shell, so write the value literally',
  notAllowed: (program: string) =>
    `Command '${program}' is not in the allowed_commands list of this agent's risk profile`,
  highRiskBlocked: (program: string) =>
    `Command '${program}' is high-risk and blocked by this agent's risk profile (block_high_risk_commands)`,
  forbiddenPath: (arg: string) => `Command argument '${arg}' names a forbidden path`,
  readOnlyTarget: (arg: string) =>
    `Command argument '${arg}' is in a read-only root, and this command may write to it; writing there is not allowed`,
  outsideWorkspace: (arg: string) =>
    `Command argument '${arg}' points outside the workspace and allowed roots (workspace_only is on)`,
  followsSymlinks: (program: string, option: string) =>
    `Command '${program}' with '${option}' follows symbolic links while it reads recursively, which can leave the workspace (workspace_only is on); read recursively without following links (for example grep -r instead of grep -R)`,
  timedOut: (secs: number) => `Command timed out after ${secs}s and was killed`,
  exitCode: (code: number) => `Command exited with code ${code}`,
  killedBySignal: (signal: string) => `Command was killed by signal ${signal}`,
  spawnFailed: (program: string, reason: string) => `Failed to run '${program}': ${reason}`,
} as const;

// --- file path policy ---
export const paths = {
  empty: () => "Missing or empty 'path' parameter",
  nullByte: () => 'Path contains a NUL byte',
  forbidden: (p: string) => `Access to '${p}' is forbidden by this agent's risk profile (forbidden_paths)`,
  outside: (p: string) => `Path '${p}' is outside the workspace and allowed roots`,
  symlinkEscape: (p: string) =>
    `Path '${p}' resolves through a symbolic link to a location outside the allowed roots`,
  readOnlyRoot: (p: string) => `Path '${p}' is in a read-only root; writing there is not allowed`,
  writeOnlyRoot: (p: string) => `Path '${p}' is in a write-only root; reading there is not allowed`,
  notFound: (p: string) => `File not found: ${p}`,
  notAFile: (p: string) => `Not a regular file: ${p}`,
  tooLarge: (p: string, size: number, cap: number) =>
    `File too large: ${p} is ${size} bytes; file_read reads at most ${cap} bytes`,
  execConfigBlocked: (p: string) =>
    `Path '${p}' configures which programs run (git, package managers, shells); writing it is high-risk and blocked by this agent's risk profile (block_high_risk_commands)`,
  contentTooLarge: (size: number, cap: number) =>
    `Content too large: ${size} bytes; file_write writes at most ${cap} bytes`,
} as const;

// --- shell sandbox (config.md §10.2) ---
export const sandbox = {
  /** The exact refusal of a shell call whose profile requires the sandbox when it cannot run. */
  unavailable: (reason: string) => `sandbox unavailable: ${reason}`,
  notFound: (binary: string, why: string) => `bubblewrap (${binary}) cannot be started: ${why}`,
  probeFailed: (binary: string, detail: string) => `bubblewrap (${binary}) failed its probe: ${detail}`,
  probeTimedOut: (binary: string) => `bubblewrap (${binary}) did not finish its probe in time`,
  backendNone: () => 'sandbox_enabled = true but sandbox_backend = "none"',
} as const;

// --- shell sandbox, startup log lines ---
export const sandboxLog = {
  state: (probeOk: boolean, reason: string) =>
    probeOk ? 'sandboxed (bubblewrap)' : `unavailable: ${reason}`,
  started: (state: string) => `shell sandbox: ${state}`,
  unsandboxed: (reason: string, profiles: readonly string[]) =>
    `shell sandbox unavailable (${reason}); shell commands of risk profile(s) ${profiles.join(', ')} run unsandboxed. Install bubblewrap, or set sandbox_enabled = false to run unsandboxed on purpose`,
  refused: (reason: string, profiles: readonly string[]) =>
    `shell sandbox unavailable (${reason}); risk profile(s) ${profiles.join(', ')} require it (sandbox_enabled = true), so every shell call of their agents fails`,
} as const;
