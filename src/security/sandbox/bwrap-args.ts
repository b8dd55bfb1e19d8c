// The bubblewrap argument vector for one shell command (config.md §10.2): what the command can see and touch.
import { statSync } from 'node:fs';
import { isWithin, realpathOr } from '../paths.ts';
import { inspectSystemEntry, type SystemEntry, systemMounts } from './system-mounts.ts';

export type { SystemEntry } from './system-mounts.ts';

/**
 * Namespaces, the system directories read-only (nothing else of the host: no /home, /root, /srv, /var, /mnt,
 * other workspaces, the data dir or the checkout), fresh /dev, /proc (of the new PID namespace) and /tmp.
 * Shared by the probe.
 */
export function baseFlags(
  allowNetwork: boolean,
  inspect: (p: string) => SystemEntry = inspectSystemEntry,
): string[] {
  return [
    // No --new-session: the command must stay in the process group the runner kills on timeout or abort
    // (bwrap's --die-with-parent alone misses a kill that lands before the sandbox is set up). The runner
    // already starts bwrap in a session of its own (detached), without a controlling terminal to inject into.
    '--die-with-parent',
    '--unshare-all',
    ...(allowNetwork ? ['--share-net'] : []),
    ...systemMounts(inspect),
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
  ];
}

/** Last of the mounts: the sandbox's own root (mount points only) becomes read-only, not scratch space. */
export const SEAL_ROOT = ['--remount-ro', '/'];

const UNSET_PWD = ['/usr/bin/env', '-u', 'PWD', '--'];

export type PathKind = 'dir' | 'other' | null;

/** What lies at `p` on the host, following symlinks; null when nothing does. */
export function inspectPath(p: string): PathKind {
  try {
    return statSync(p).isDirectory() ? 'dir' : 'other';
  } catch {
    return null;
  }
}

export interface SandboxLayout {
  workspaceDir: string;
  /** Workspace and these roots are writable unless `readOnly`. */
  writableRoots: readonly string[];
  /** Visible read-only even where a hidden path or the private /tmp would cover them. */
  readOnlyRoots: readonly string[];
  /** Absolute (already expanded) forbidden paths; those that do not exist are skipped. */
  forbiddenPaths: readonly string[];
  readOnly: boolean;
  allowNetwork: boolean;
}

type Mount = { path: string; order: number; flags: string[] };

/** The sandbox brings its own /proc and /dev: nothing of the host's is visible there to hide. */
const OWN_MOUNTS = ['/proc', '/dev'];

const depth = (p: string) => (p === '/' ? 0 : p.split('/').length - 1);

function rootMounts(layout: SandboxLayout, inspect: (p: string) => PathKind): Mount[] {
  const out: Mount[] = [];
  const bind = layout.readOnly ? '--ro-bind' : '--bind';
  for (const root of [layout.workspaceDir, ...layout.writableRoots]) {
    const real = realpathOr(root);
    if (inspect(real) !== null) out.push({ path: real, order: 0, flags: [bind, real, real] });
  }
  for (const root of layout.readOnlyRoots) {
    const real = realpathOr(root);
    if (inspect(real) !== null) out.push({ path: real, order: 0, flags: ['--ro-bind', real, real] });
  }
  return out;
}

function hideMounts(layout: SandboxLayout, inspect: (p: string) => PathKind): Mount[] {
  const out: Mount[] = [];
  for (const p of layout.forbiddenPaths) {
    const real = realpathOr(p);
    // Hiding "/" would leave nothing to run; the command policy still refuses such paths by name.
    if (real === '/' || OWN_MOUNTS.some((m) => isWithin(real, m))) continue;
    const kind = inspect(real);
    // An empty tmpfs, left writable: a root bound below it later needs its mount point created there.
    if (kind === 'dir') out.push({ path: real, order: 1, flags: ['--tmpfs', real] });
    else if (kind === 'other') out.push({ path: real, order: 1, flags: ['--ro-bind', '/dev/null', real] });
  }
  return out;
}

/**
 * Later mounts cover earlier ones, so mounts go outermost first: a forbidden `/root` is hidden before a
 * workspace under it is bound back, and a forbidden path inside the workspace is hidden after the workspace.
 * At the same path, hiding wins.
 */
export function bwrapArgs(
  layout: SandboxLayout,
  argv: readonly string[],
  inspect: (p: string) => PathKind = inspectPath,
  inspectSystem: (p: string) => SystemEntry = inspectSystemEntry,
): string[] {
  const mounts = [...rootMounts(layout, inspect), ...hideMounts(layout, inspect)]
    .map((m, i) => ({ ...m, i }))
    .sort((a, b) => depth(a.path) - depth(b.path) || a.order - b.order || a.i - b.i);
  return [
    ...baseFlags(layout.allowNetwork, inspectSystem),
    ...mounts.flatMap((m) => m.flags),
    ...SEAL_ROOT,
    '--chdir',
    realpathOr(layout.workspaceDir),
    '--',
    // bwrap always sets PWD; env drops it so the command sees exactly the environment the policy passes.
    ...UNSET_PWD,
    ...argv,
  ];
}
