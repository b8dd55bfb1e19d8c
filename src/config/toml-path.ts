// TOML paths and value kinds as the diagnostics print them (spec/config.md §3).

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** One path segment: a table key, or an array index. */
export type PathSegment = string | number;

/** `agents.main.delegates[1].mode`; non-bare keys in double quotes, e.g. `models.ollama."qwen2.5-coder:7b"`. */
export function formatPath(segments: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of segments) {
    if (typeof seg === 'number') {
      out += `[${seg}]`;
      continue;
    }
    const key = String(seg);
    const written = BARE_KEY.test(key) ? key : JSON.stringify(key);
    out += out === '' ? written : `.${written}`;
  }
  return out;
}

/** The top-level section a path belongs to: its first segment. */
export function sectionOf(path: string): string {
  const match = /^[A-Za-z0-9_-]+/.exec(path);
  return match ? match[0] : path;
}

export type ValueKind = 'string' | 'integer' | 'float' | 'boolean' | 'array' | 'table' | 'datetime';

/**
 * The kind of a parsed TOML value. The parser runs with `integersAsBigInt`, so integers arrive as bigint
 * and every JS number is a TOML float: that is what lets `1.0` be told apart from `1`.
 */
export function kindOf(value: unknown): ValueKind {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'bigint') return 'integer';
  if (typeof value === 'number') return 'float';
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Date) return 'datetime';
  return 'table';
}

/** A TOML table (plain object), not an array nor a datetime. */
export function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
