// Path primitives shared by the policy, the narrowing validator and the path guard: expansion, realpath, containment.
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/** Expands a leading `~` / `~/` to the home directory; other `~user` forms stay literal. */
export function expandHome(p: string): string {
  if (p === '~') return homedir();
  if (p.startsWith('~/')) return resolve(homedir(), p.slice(2));
  return p;
}

/** Absolute form of `p`, relative paths taken from `base`. */
export function absolutePath(p: string, base: string): string {
  return resolve(base, expandHome(p));
}

/** The real path when it resolves, else the path as given. */
export function realpathOr(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}

/** True when `child` equals `parent` or lies under it, by whole path segments (`/a2` is not under `/a`). */
export function isWithin(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  if (rel === '') return true;
  return !isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`);
}

/**
 * Containment as the narrowing validator defines it: compared on real paths (falling back to the path as
 * written), and also passing when the unresolved paths satisfy the same test.
 */
export function isContainedPath(child: string, parent: string): boolean {
  if (isWithin(resolve(child), resolve(parent))) return true;
  return isWithin(realpathOr(resolve(child)), realpathOr(resolve(parent)));
}

/**
 * Real path of `p` even when it does not exist yet: the nearest existing ancestor is resolved (following
 * symlinks) and the missing tail appended, so a write through a symlinked directory is seen where it lands.
 */
export function realpathNearest(p: string): string {
  const abs = resolve(p);
  const tail: string[] = [];
  let cur = abs;
  for (;;) {
    try {
      const real = realpathSync.native(cur);
      return tail.length ? resolve(real, ...tail.reverse()) : real;
    } catch {
      const parent = dirname(cur);
      if (parent === cur) return abs;
      tail.push(basename(cur));
      cur = parent;
    }
  }
}
