// The project's own TypeScript sources, for tests that check imports and code patterns.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export const PROJECT_ROOT = join(import.meta.dirname, '..', '..');

/** Every `.ts` file under `dir` (relative to the project root), as paths relative to the root. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(join(PROJECT_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(rel);
    return entry.name.endsWith('.ts') ? [rel] : [];
  });
}
