// The default workspace of an agent: `<data_dir>/workspaces/<alias>`. The alias is checked by ids.ts first; this
// refuses, as a second layer, any alias that would resolve outside that directory.
import { relative, resolve, sep } from 'node:path';

export class WorkspacePathError extends Error {
  override readonly name = 'WorkspacePathError';
}

export function defaultWorkspacePath(dataDir: string, alias: string): string {
  const root = resolve(dataDir, 'workspaces');
  const path = resolve(root, alias);
  const rel = relative(root, path);
  if (rel === '' || rel.startsWith('..') || rel.includes(sep) || resolve(root, rel) !== path) {
    throw new WorkspacePathError(`agent alias "${alias}" does not name a directory inside ${root}`);
  }
  return path;
}
