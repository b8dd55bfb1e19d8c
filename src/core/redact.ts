// Secret redaction shared by every sink: one marker, one minimum length, one single-pass matcher.

/** What a redacted secret reads as, in logs, chat replies, tool results and API responses alike. */
export const REDACTED = '[redacted]';

/**
 * Shorter values are not redacted from text: a 4-character value matches ordinary words and numbers, so
 * redacting it would garble innocent text. The config loader warns about a credential this short.
 */
export const MIN_REDACT_LENGTH = 6;

export type TextRedactor = (text: string) => string;

const identity: TextRedactor = (text) => text;

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The needles to search for: each long-enough secret, plus its JSON-escaped form (a secret with a quote or
 * backslash appears escaped inside a serialised JSON body). Longest first, so a secret that contains
 * another is replaced whole.
 */
function needlesOf(secrets: readonly string[]): string[] {
  const out = new Set<string>();
  for (const s of secrets) {
    if (s.length < MIN_REDACT_LENGTH) continue;
    out.add(s);
    const escaped = JSON.stringify(s).slice(1, -1);
    if (escaped !== s) out.add(escaped);
  }
  return [...out].sort((a, b) => b.length - a.length);
}

/** One precompiled alternation (longest first) replaces every known secret in a single pass. */
export function createTextRedactor(secrets: readonly string[]): TextRedactor {
  const needles = needlesOf(secrets);
  if (needles.length === 0) return identity;
  const pattern = new RegExp(needles.map(escapeRegExp).join('|'), 'g');
  return (text) => (typeof text === 'string' ? text.replace(pattern, REDACTED) : text);
}

/** True when `value` is a secret too short to be redacted safely from free text. */
export const tooShortToRedact = (value: string): boolean => value !== '' && value.length < MIN_REDACT_LENGTH;

export interface DeepRedactOptions {
  /** Values of keys matching it are replaced whole when they are strings (e.g. `authorization`). */
  secretKeys?: RegExp;
}

/**
 * Redacts strings anywhere inside a value: objects, arrays, Maps, Sets, Error messages, stacks, causes and
 * own properties, at any depth. A cycle becomes `[circular]`; a shared (non-cyclic) object is walked again.
 * The input is never mutated.
 */
export function createDeepRedactor(
  secrets: readonly string[],
  opts: DeepRedactOptions = {},
): (value: unknown) => unknown {
  const text = createTextRedactor(secrets);
  const keyPattern = opts.secretKeys;
  return (root) => {
    const onPath = new WeakSet<object>();
    const walk = (value: unknown): unknown => {
      if (typeof value === 'string') return text(value);
      if (value === null || typeof value !== 'object') return value;
      if (value instanceof Date || ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return value;
      if (onPath.has(value)) return '[circular]';
      onPath.add(value);
      try {
        if (Array.isArray(value)) return value.map(walk);
        if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), walk(v)]));
        if (value instanceof Set) return [...value].map(walk);
        const out: Record<string, unknown> = {};
        if (value instanceof Error) {
          out.type = value.name;
          out.message = text(value.message);
          if (value.stack !== undefined) out.stack = text(value.stack);
          if (value.cause !== undefined) out.cause = walk(value.cause);
        }
        for (const [k, v] of Object.entries(value)) {
          out[k] = keyPattern?.test(k) && typeof v === 'string' && v !== '' ? REDACTED : walk(v);
        }
        return out;
      } finally {
        onPath.delete(value);
      }
    };
    return walk(root);
  };
}
