// Step 2 of loading: `${NAME}` secret interpolation over every string value (spec/config.md §2).
import { envNotSet, invalid } from './config-messages.ts';
import { formatPath, isTable, type PathSegment } from './toml-path.ts';
import type { Diagnostic } from './types.ts';

// `$${` is the escape for a literal `${`; it must be matched first so `$${X}` never interpolates.
const REFERENCE = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export interface InterpolationResult {
  /** A copy of the document with every reference replaced. Unset references are left as written. */
  value: unknown;
  diagnostics: Diagnostic[];
  /** Every non-empty value that was substituted, so logs and diagnostics can redact it. */
  secrets: string[];
}

export function interpolate(document: unknown, env: Record<string, string | undefined>): InterpolationResult {
  const diagnostics: Diagnostic[] = [];
  const secrets = new Set<string>();

  const replaceIn = (text: string, path: PathSegment[]): string =>
    text.replace(REFERENCE, (match: string, name: string | undefined) => {
      if (name === undefined) return '${';
      const value = env[name];
      if (value === undefined) {
        const at = formatPath(path);
        diagnostics.push({ severity: 'error', path: at, message: invalid(at, envNotSet(name)) });
        return match;
      }
      if (value !== '') secrets.add(value);
      return value;
    });

  const walk = (node: unknown, path: PathSegment[]): unknown => {
    if (typeof node === 'string') return replaceIn(node, path);
    if (Array.isArray(node)) return node.map((item, i) => walk(item, [...path, i]));
    if (isTable(node)) {
      // Table keys are never interpolated, only values. fromEntries keeps a `__proto__` key a plain key.
      return Object.fromEntries(
        Object.entries(node).map(([key, child]) => [key, walk(child, [...path, key])]),
      );
    }
    return node;
  };

  const value = walk(document, []);
  return { value, diagnostics, secrets: [...secrets] };
}
