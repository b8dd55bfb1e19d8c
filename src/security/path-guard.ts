// Path policy for file and shell tools: workspace and allowed roots, read-/write-only roots, forbidden paths, symlinks.
import { resolve } from 'node:path';
import { absolutePath, expandHome, isWithin, realpathNearest, realpathOr } from './paths.ts';
import { paths as text } from './security-messages.ts';
import type { SecurityPolicy } from './types.ts';

/** `any` is for shell arguments, where the tool cannot tell a read from a write. */
export type PathMode = 'read' | 'write' | 'any';

export type PathPolicy = Pick<
  SecurityPolicy,
  | 'workspaceDir'
  | 'workspaceOnly'
  | 'allowedRoots'
  | 'allowedRootsReadOnly'
  | 'allowedRootsWriteOnly'
  | 'forbiddenPaths'
>;

export type PathDenial =
  | 'invalid'
  | 'forbidden'
  | 'read_only_root'
  | 'write_only_root'
  | 'outside'
  | 'symlink_escape';

export type PathCheck =
  | { ok: true; path: string; lexical: string }
  | { ok: false; error: string; reason: PathDenial };

const deny = (reason: PathDenial, error: string): PathCheck => ({ ok: false, error, reason });

/** Both spellings of a root, so a workspace under a symlinked directory (e.g. macOS /tmp) still matches. */
const forms = (root: string) => {
  const abs = resolve(root);
  const real = realpathOr(abs);
  return real === abs ? [abs] : [abs, real];
};

const within = (p: string, roots: readonly string[]) =>
  roots.some((r) => forms(r).some((f) => isWithin(p, f)));

function grantedRoots(policy: PathPolicy, mode: PathMode): string[] {
  const base = [policy.workspaceDir, ...policy.allowedRoots];
  if (mode === 'read') return [...base, ...policy.allowedRootsReadOnly];
  if (mode === 'write') return [...base, ...policy.allowedRootsWriteOnly];
  return [...base, ...policy.allowedRootsReadOnly, ...policy.allowedRootsWriteOnly];
}

/**
 * A forbidden entry blocks everything under it, except inside a granted root that is strictly more specific
 * (so a default `/home` or `/tmp` entry does not lock an agent out of its own workspace below it), while an
 * entry inside a root (e.g. `<workspace>/secrets`) still blocks.
 */
function isForbidden(policy: PathPolicy, p: string, roots: readonly string[]): boolean {
  for (const entry of policy.forbiddenPaths) {
    if (entry.trim() === '') continue;
    for (const f of forms(absolutePath(entry.trim(), policy.workspaceDir))) {
      if (!isWithin(p, f)) continue;
      const carvedOut = roots.some((r) =>
        forms(r).some((rf) => rf !== f && isWithin(rf, f) && isWithin(p, rf)),
      );
      if (!carvedOut) return true;
    }
  }
  return false;
}

/** Resolves `raw` against the workspace and checks it for `mode`; `path` is the real location to act on. */
export function checkPath(policy: PathPolicy, raw: unknown, mode: PathMode): PathCheck {
  if (typeof raw !== 'string' || raw.trim() === '') return deny('invalid', text.empty());
  if (raw.includes('\0')) return deny('invalid', text.nullByte());
  const lexical = resolve(policy.workspaceDir, expandHome(raw));
  const real = realpathNearest(lexical);
  const granted = grantedRoots(policy, mode);

  const writable = [policy.workspaceDir, ...policy.allowedRoots, ...policy.allowedRootsWriteOnly];
  const readable = [policy.workspaceDir, ...policy.allowedRoots, ...policy.allowedRootsReadOnly];
  if (mode === 'write' && within(real, policy.allowedRootsReadOnly) && !within(real, writable)) {
    return deny('read_only_root', text.readOnlyRoot(raw));
  }
  if (mode === 'read' && within(real, policy.allowedRootsWriteOnly) && !within(real, readable)) {
    return deny('write_only_root', text.writeOnlyRoot(raw));
  }
  const everyRoot = grantedRoots(policy, 'any');
  if (isForbidden(policy, lexical, everyRoot) || isForbidden(policy, real, everyRoot)) {
    return deny('forbidden', text.forbidden(raw));
  }
  if (policy.workspaceOnly) {
    if (!within(lexical, granted)) return deny('outside', text.outside(raw));
    if (!within(real, granted)) return deny('symlink_escape', text.symlinkEscape(raw));
  }
  return { ok: true, path: real, lexical };
}
