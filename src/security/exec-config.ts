// Files that tell a program what to run: writing one is high risk, since a later low-risk command (`git status`,
// `cargo metadata`) or the operator's own shell would run what it names.
import { lstatSync, readlinkSync } from 'node:fs';
import { basename, dirname, resolve, sep } from 'node:path';
import { absolutePath, realpathNearest } from './paths.ts';

/** A directory whose every file configures execution, at any depth (`.git/config`, `.git/hooks/*`, a `.git` file). */
const EXEC_CONFIG_DIRS = new Set(['.git']);

/** File names that configure a program's execution wherever they lie (git, npm/yarn/pnpm, rustup, shells, direnv). */
const EXEC_CONFIG_FILES = new Set([
  '.gitattributes',
  '.gitmodules',
  '.gitconfig',
  '.lfsconfig',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnpmfile.cjs',
  'rust-toolchain',
  'rust-toolchain.toml',
  '.tool-versions',
  '.envrc',
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
]);

/** Files that count only inside the named directory (`.cargo/config.toml` names rustc, linkers, runners). */
const EXEC_CONFIG_IN_DIR: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['.cargo', new Set(['config', 'config.toml'])],
]);

/** True when the path, as written, names an execution-config file or lies under an execution-config directory. */
export function isExecConfigPath(p: string): boolean {
  const parts = p.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
  if (parts.some((s) => EXEC_CONFIG_DIRS.has(s))) return true;
  const name = basename(p);
  if (EXEC_CONFIG_FILES.has(name)) return true;
  const parent = parts.at(-2);
  return parent !== undefined && (EXEC_CONFIG_IN_DIR.get(parent)?.has(name) ?? false);
}

/** Follows a final symlink even when it dangles: `touch link` creates the file a dangling link names. */
function landing(p: string): string {
  let cur = p;
  for (let hops = 0; hops < 40; hops++) {
    try {
      if (!lstatSync(cur).isSymbolicLink()) break;
      cur = resolve(dirname(cur), readlinkSync(cur));
    } catch {
      break;
    }
  }
  return realpathNearest(cur);
}

/** Checks the path as written and where it really lands (a symlink `notes -> .git/config` is caught). */
export function writesExecConfig(workspaceDir: string, raw: string): boolean {
  if (isExecConfigPath(raw)) return true;
  const real = landing(absolutePath(raw, workspaceDir));
  const base = realpathNearest(workspaceDir);
  // Judge the real path below the workspace only, so a workspace that itself lies under such a name still works.
  const rel = real.startsWith(base + sep) ? real.slice(base.length + 1) : real;
  return isExecConfigPath(rel);
}
