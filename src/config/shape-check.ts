// Step 3 of loading for one section: run its zod schema, turning issues into spec diagnostics (§3).
import type { z } from 'zod';
import { invalid, unknownKey } from './config-messages.ts';
import { formatPath, isTable } from './toml-path.ts';
import type { Diagnostic } from './types.ts';

export interface ShapeResult<T> {
  /** The parsed section with defaults applied; undefined when it has errors. */
  data: T | undefined;
  diagnostics: Diagnostic[];
}

/** `raw` undefined means the section is absent: its defaults are returned. */
export function checkShape<T extends z.ZodType>(
  section: string,
  schema: T,
  raw: unknown,
): ShapeResult<z.output<T>> {
  const input = raw === undefined ? {} : raw;
  const first = schema.safeParse(input);
  if (first.success) return { data: first.data, diagnostics: [] };

  const diagnostics: Diagnostic[] = [];
  const unknownPaths: PropertyKey[][] = [];
  let hasErrors = false;
  for (const issue of first.error.issues) {
    const base = [section, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const path = formatPath([...base, key]);
        unknownPaths.push([...issue.path, key]);
        diagnostics.push({ severity: 'warning', path, message: unknownKey(path) });
      }
      continue;
    }
    hasErrors = true;
    const path = formatPath(base);
    diagnostics.push({ severity: 'error', path, message: invalid(path, issue.message) });
  }
  if (hasErrors) return { data: undefined, diagnostics };

  // Only unknown keys: zod refuses the whole value, so drop them (they are ignored anyway) and parse again.
  const second = schema.safeParse(withoutKeys(input, unknownPaths));
  if (second.success) return { data: second.data, diagnostics };
  for (const issue of second.error.issues) {
    const path = formatPath([section, ...issue.path]);
    diagnostics.push({ severity: 'error', path, message: invalid(path, issue.message) });
  }
  return { data: undefined, diagnostics };
}

function withoutKeys(value: unknown, paths: PropertyKey[][]): unknown {
  const copy = structuredClone(value);
  for (const path of paths) {
    let node: unknown = copy;
    for (const seg of path.slice(0, -1))
      node = isTable(node) || Array.isArray(node) ? Reflect.get(node, seg) : undefined;
    const last = path.at(-1);
    if (isTable(node) && last !== undefined) Reflect.deleteProperty(node, last);
  }
  return copy;
}
