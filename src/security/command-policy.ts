// Shell command policy: parse to argv, allowlist the program, classify risk, block high risk, guard path arguments.
import { basename, isAbsolute } from 'node:path';
import { classifyArgv } from './command-risk.ts';
import { commandsEquivalent } from './escalation.ts';
import { command as text } from './messages.ts';
import { checkPath, type PathPolicy } from './path-guard.ts';
import { isWithin, realpathNearest } from './paths.ts';
import { splitCommand } from './shell-lexer.ts';
import type { CommandRisk, SecurityPolicy } from './types.ts';

export type CommandPolicy = PathPolicy &
  Pick<
    SecurityPolicy,
    'autonomy' | 'allowedCommands' | 'blockHighRiskCommands' | 'requireApprovalForMediumRisk'
  >;

export type CommandCheck =
  | { ok: true; argv: string[]; risk: CommandRisk; needsApproval: boolean }
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

/** Values in an argument that may name a file: the argument, `--opt=<value>`, and `-f<value>` short forms. */
function pathCandidates(arg: string): string[] {
  if (!arg.startsWith('-')) return [arg];
  const eq = arg.indexOf('=');
  if (eq >= 0) return [arg.slice(eq + 1)];
  if (/^-[A-Za-z]./.test(arg) && arg.slice(2).includes('/')) return [arg.slice(2)];
  return [];
}

function checkArguments(policy: CommandPolicy, args: readonly string[]): string | null {
  for (const arg of args) {
    for (const candidate of pathCandidates(arg)) {
      if (candidate === '' || candidate.includes('://')) continue;
      const res = checkPath(policy, candidate, 'any');
      if (res.ok) continue;
      return res.reason === 'forbidden' ? text.forbiddenPath(candidate) : text.outsideWorkspace(candidate);
    }
  }
  return null;
}

/** Medium risk asks when the profile says so; unblocked high risk always asks. Full autonomy never asks. */
function needsApproval(policy: CommandPolicy, risk: CommandRisk): boolean {
  if (policy.autonomy !== 'supervised') return false;
  if (risk === 'high') return true;
  return risk === 'medium' && policy.requireApprovalForMediumRisk;
}

export function checkCommand(policy: CommandPolicy, commandLine: unknown): CommandCheck {
  if (typeof commandLine !== 'string' || commandLine.trim() === '') return { ok: false, error: text.empty() };
  const lexed = splitCommand(commandLine.trim());
  if (!lexed.ok) return lexed;
  const [program, ...args] = lexed.argv;
  if (program === undefined || program === '') return { ok: false, error: text.empty() };
  if (!isProgramAllowed(policy, program)) return { ok: false, error: text.notAllowed(program) };
  const risk = classifyArgv(lexed.argv);
  if (risk === 'high' && policy.blockHighRiskCommands)
    return { ok: false, error: text.highRiskBlocked(program) };
  const argError = checkArguments(policy, args);
  if (argError) return { ok: false, error: argError };
  return { ok: true, argv: lexed.argv, risk, needsApproval: needsApproval(policy, risk) };
}

/** Risk of a command line without checking it (for summaries); unparsable lines count as high. */
export function classifyCommand(commandLine: string): CommandRisk {
  const lexed = splitCommand(commandLine.trim());
  return lexed.ok && lexed.argv.length > 0 ? classifyArgv(lexed.argv) : 'high';
}
