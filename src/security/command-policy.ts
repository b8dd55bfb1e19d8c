// Shell command policy: parse to argv, allowlist the program, classify risk, block high risk, guard path arguments.
import { basename, isAbsolute, join } from 'node:path';
import { assessArgv, type CommandClass } from './command-risk.ts';
import { commandsEquivalent } from './escalation.ts';
import { isExecConfigPath, writesExecConfig } from './exec-config.ts';
import { checkPath, type PathDenial, type PathPolicy } from './path-guard.ts';
import { isWithin, realpathNearest } from './paths.ts';
import { followsLinksRecursively } from './risk/symlink-readers.ts';
import { command as text } from './security-messages.ts';
import { splitCommand } from './shell-lexer.ts';
import type { CommandRisk, SecurityPolicy } from './types.ts';

export type CommandPolicy = PathPolicy &
  Pick<
    SecurityPolicy,
    | 'autonomy'
    | 'allowedCommands'
    | 'blockHighRiskCommands'
    | 'requireApprovalForMediumRisk'
    | 'autoApprove'
    | 'alwaysAsk'
  >;

export type CommandCheck =
  | { ok: true; argv: string[]; risk: CommandRisk; writes: boolean; needsApproval: boolean }
  | { ok: false; error: string };

/** Locations the agent can write to: a program there could be one the model just wrote. */
function inWritableLocation(policy: CommandPolicy, program: string): boolean {
  const real = realpathNearest(program);
  return [policy.workspaceDir, ...policy.allowedRoots, ...policy.allowedRootsWriteOnly].some(
    (r) => isWithin(program, r) || isWithin(real, realpathNearest(r)),
  );
}

/**
 * argv[0] against allowed_commands with the command-equivalence rule: a path-like entry must match exactly; a
 * bare entry matches the bare name case-insensitively, or an absolute program path by basename unless that
 * path is somewhere the agent can write.
 */
export function isProgramAllowed(policy: CommandPolicy, program: string): boolean {
  for (const entry of policy.allowedCommands) {
    if (entry.trim() === '*') return true;
    if (commandsEquivalent(entry, program)) return true;
    const bareEntry = !entry.includes('/');
    if (bareEntry && isAbsolute(program) && commandsEquivalent(entry, basename(program))) {
      if (!inWritableLocation(policy, program)) return true;
    }
  }
  return false;
}

/**
 * Values in an argument that may name a file: the argument itself, `--opt=<value>`, and whatever follows any
 * leading letter of a short-option cluster, since the classifier cannot know which letter takes a value (`-C..`,
 * `-o/tmp/x`, `-uo/tmp/x`, `-xzf/tmp/a.tar`).
 */
export function pathCandidates(arg: string): string[] {
  if (arg === '-' || arg === '--') return [];
  if (!arg.startsWith('-')) return [arg];
  const eq = arg.indexOf('=');
  if (arg.startsWith('--')) return eq >= 0 ? [arg.slice(eq + 1)] : [];
  const found: string[] = [];
  for (let i = 2; i < arg.length && /[A-Za-z]/.test(arg[i - 1]!); i++) found.push(arg.slice(i));
  if (eq >= 0) found.push(arg.slice(eq + 1));
  return found;
}

const checkable = (candidate: string) => candidate !== '' && !candidate.includes('://');

function denial(candidate: string, reason: PathDenial): string {
  if (reason === 'forbidden') return text.forbiddenPath(candidate);
  if (reason === 'read_only_root') return text.readOnlyTarget(candidate);
  return text.outsideWorkspace(candidate);
}

function checkArguments(policy: CommandPolicy, args: readonly string[], cls: CommandClass): string | null {
  for (const candidate of args.flatMap(pathCandidates).filter(checkable)) {
    const res = checkPath(policy, candidate, 'any');
    if (!res.ok) return denial(candidate, res.reason);
  }
  // What the command writes must be writable, as for file_write: a read-only root refuses the write.
  const targets = cls.targets === 'all' ? args.flatMap(pathCandidates) : cls.targets;
  for (const target of targets.filter(checkable)) {
    const res = checkPath(policy, target, 'write');
    if (!res.ok && res.reason !== 'write_only_root') return denial(target, res.reason);
  }
  return null;
}

const listed = (list: readonly string[], tool: string) => list.includes('*') || list.includes(tool);

/**
 * Whether a `file_write` call would need an operator under this profile (approvals.md §2, without the
 * per-gate "Always" list): a command that writes is a write for the approval rules.
 */
function fileWriteNeedsApproval(policy: CommandPolicy): boolean {
  if (policy.autonomy === 'readonly') return false;
  if (listed(policy.alwaysAsk, 'file_write')) return true;
  if (policy.autonomy === 'full') return false;
  return !listed(policy.autoApprove, 'file_write');
}

/**
 * Under supervised: high risk always asks, a write asks as `file_write` would, other medium risk asks when
 * the profile says so. Full autonomy asks only for writes when `always_ask` lists `file_write`.
 */
function needsApproval(policy: CommandPolicy, cls: CommandClass): boolean {
  if (cls.writes && fileWriteNeedsApproval(policy)) return true;
  if (policy.autonomy !== 'supervised') return false;
  if (cls.risk === 'high') return true;
  return cls.risk === 'medium' && policy.requireApprovalForMediumRisk;
}

/**
 * A command that may write a file that configures execution (`.git/config`, `.npmrc`, …) is high risk. A target
 * may be a directory, so a source's name placed in it counts too (`cp x/.npmrc .`, `mv evil .git`).
 */
function withExecConfigRisk(
  args: readonly string[],
  cls: CommandClass,
  isExecConfig: (target: string) => boolean,
): CommandClass {
  if (!cls.writes) return cls;
  const candidates = args.flatMap(pathCandidates).filter(checkable);
  const targets = cls.targets === 'all' ? candidates : cls.targets.filter(checkable);
  const placed = targets.flatMap((t) => candidates.map((c) => join(t, basename(c))));
  return [...targets, ...placed].some(isExecConfig) ? { ...cls, risk: 'high' } : cls;
}

export function checkCommand(policy: CommandPolicy, commandLine: unknown): CommandCheck {
  if (typeof commandLine !== 'string' || commandLine.trim() === '') return { ok: false, error: text.empty() };
  const lexed = splitCommand(commandLine.trim());
  if (!lexed.ok) return lexed;
  const [program, ...args] = lexed.argv;
  if (program === undefined || program === '') return { ok: false, error: text.empty() };
  if (!isProgramAllowed(policy, program)) return { ok: false, error: text.notAllowed(program) };
  // Path checks see the arguments only; a link met during the walk could lead anywhere.
  const follows = policy.workspaceOnly ? followsLinksRecursively(lexed.argv) : null;
  if (follows !== null) return { ok: false, error: text.followsSymlinks(program, follows) };
  const cls = withExecConfigRisk(args, assessArgv(lexed.argv), (t) =>
    writesExecConfig(policy.workspaceDir, t),
  );
  if (cls.risk === 'high' && policy.blockHighRiskCommands)
    return { ok: false, error: text.highRiskBlocked(program) };
  const argError = checkArguments(policy, args, cls);
  if (argError) return { ok: false, error: argError };
  return {
    ok: true,
    argv: lexed.argv,
    risk: cls.risk,
    writes: cls.writes,
    needsApproval: needsApproval(policy, cls),
  };
}

/** Risk of a command line without checking it (for summaries); unparsable lines count as high. */
export function classifyCommand(commandLine: string): CommandRisk {
  const lexed = splitCommand(commandLine.trim());
  if (!lexed.ok || lexed.argv.length === 0) return 'high';
  return withExecConfigRisk(lexed.argv.slice(1), assessArgv(lexed.argv), isExecConfigPath).risk;
}
