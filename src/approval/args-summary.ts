// The argument summary shown in prompts, logs and approval records instead of raw arguments (approvals.md §4).
import { REDACTED } from '../core/redact.ts';

/** Keys whose values are never shown: any of these, case-insensitively, anywhere in the key (§4). */
const SECRET_KEY =
  /secret|password|passwd|token|api_key|api-key|apikey|auth|bearer|private_key|private-key|privatekey|credential/i;

const VALUE_CHARS = 80;
const NON_OBJECT_CHARS = 120;

export const isSecretKey = (key: string): boolean => SECRET_KEY.test(key);

/** Cut to `max` code points (never splitting a surrogate pair), `…` appended when cut. */
function cut(text: string, max: number): string {
  const points = [...text];
  return points.length > max ? `${points.slice(0, max).join('')}…` : text;
}

/**
 * Compact JSON with secret-keyed values redacted at any depth: §4 names the top-level keys, and baton also
 * applies it inside nested values so a secret never reaches a prompt or a log through a nested object.
 */
function compactJson(value: unknown): string {
  const text = JSON.stringify(value, (key, v) => (key !== '' && isSecretKey(key) ? REDACTED : v));
  return text ?? 'null';
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `path` first, then the other keys in order, as `key: value` joined by `", "`; strings as they are, other
 * values as compact JSON, each cut to 80 code points. Non-objects: compact JSON cut to 120. Empty: `''`.
 */
export function summarizeArgs(args: unknown): string {
  if (!isPlainObject(args)) return args === undefined ? '' : cut(compactJson(args), NON_OBJECT_CHARS);
  const keys = Object.keys(args);
  const ordered = keys.includes('path') ? ['path', ...keys.filter((k) => k !== 'path')] : keys;
  return ordered
    .map((key) => {
      if (isSecretKey(key)) return `${key}: ${REDACTED}`;
      const value = args[key];
      return `${key}: ${cut(typeof value === 'string' ? value : compactJson(value), VALUE_CHARS)}`;
    })
    .join(', ');
}

/** How a summary reads in a prompt: an empty one is shown as `(none)` [baton decision]. */
export const promptSummary = (summary: string): string => (summary === '' ? '(none)' : summary);
