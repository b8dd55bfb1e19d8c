// Pins git's configuration for every shell command (and every git it starts), so that repository config or
// attributes the model wrote cannot make a low-risk git command run a program, and discovery stops at the roots.
import { basename, dirname } from 'node:path';
import { isWithin, realpathOr } from './paths.ts';
import { scanArgs } from './risk/argv-options.ts';
import { GIT_GLOBAL_SPEC } from './risk/git.ts';

/**
 * Command-scope config (GIT_CONFIG_COUNT, git ≥ 2.31) overrides the repository's own `.git/config`: each key
 * below names a program git would otherwise run from there, or turns such a run on.
 */
const PINNED_CONFIG: readonly (readonly [string, string])[] = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.editor', 'true'],
  ['sequence.editor', 'true'],
  ['core.askPass', ''],
  ['core.sshCommand', 'ssh'],
  // An empty value clears the list of helpers collected so far.
  ['credential.helper', ''],
  ['gpg.program', 'gpg'],
  ['gpg.openpgp.program', 'gpg'],
  ['gpg.x509.program', 'gpgsm'],
  ['gpg.ssh.program', 'ssh-keygen'],
  ['log.showSignature', 'false'],
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['protocol.ext.allow', 'never'],
];

/** Passthrough `GIT_*` variables that only name an identity or a date; any other could name a program or a repository. */
const GIT_PASSTHROUGH_OK = new Set([
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_AUTHOR_DATE',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_COMMITTER_DATE',
]);

/** The profile's `shell_env_passthrough` without the `GIT_*` variables that could undo the pinned config. */
export const gitSafePassthrough = (names: readonly string[]) =>
  names.filter((n) => !n.startsWith('GIT_') || GIT_PASSTHROUGH_OK.has(n));

/**
 * The parents of the agent's roots (real paths), so git finds a repository in a root or below it but never
 * one that encloses it (a `data_dir` inside a checkout). A parent inside another root is left out, so that a
 * root nested in the workspace does not cut the workspace's own repository off.
 */
export function ceilingDirectories(roots: readonly string[]): string[] {
  const real = roots.map((r) => realpathOr(r));
  const parents = real.map((r) => dirname(r)).filter((p) => !real.some((r) => isWithin(p, r)));
  return [...new Set(parents)];
}

/** Environment every shell command gets on top of the policy's: no system or global config, no prompts or pagers. */
export function gitGuardEnv(roots: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_EDITOR: 'true',
    GIT_SEQUENCE_EDITOR: 'true',
    GIT_CEILING_DIRECTORIES: ceilingDirectories(roots).join(':'),
    GIT_CONFIG_COUNT: String(PINNED_CONFIG.length),
  };
  PINNED_CONFIG.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/** Diff drivers cannot be pinned by name, so the subcommands that run them by default are told not to. */
const NO_DRIVERS: ReadonlyMap<string, readonly string[]> = new Map([
  ['diff', ['--no-ext-diff', '--no-textconv']],
  ['log', ['--no-ext-diff', '--no-textconv']],
  ['show', ['--no-ext-diff', '--no-textconv']],
  ['whatchanged', ['--no-ext-diff', '--no-textconv']],
  ['blame', ['--no-textconv']],
  ['annotate', ['--no-textconv']],
]);

/** `git [globals] <sub> …` with the driver-off options right after the subcommand; other argv unchanged. */
export function hardenGitArgv(argv: readonly string[]): string[] {
  if (basename(argv[0] ?? '') !== 'git') return [...argv];
  const args = argv.slice(1);
  const { rest } = scanArgs(args, GIT_GLOBAL_SPEC, true);
  const extra = NO_DRIVERS.get(rest[0] ?? '');
  if (!extra) return [...argv];
  const at = 1 + args.length - rest.length + 1;
  return [...argv.slice(0, at), ...extra, ...argv.slice(at)];
}
