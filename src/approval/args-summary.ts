// The argument summary shown in prompts, logs and approval records instead of raw arguments (approvals.md §4).
import { REDACTED } from '../core/redact.ts';
import { cutMiddle, visibleTokens } from './visible-text.ts';

/** Keys whose values are never shown: any of these, case-insensitively, anywhere in the key (§4). */
const SECRET_KEY =
  /secret|password|passwd|token|api_key|api-key|apikey|auth|bearer|private_key|private-key|privatekey|credential/i;

/**
 * Code points shown per key or value, and for the whole summary (a non-object argument included). The whole must
 * fit the smallest prompt: a Discord message of 2,000 characters with its heading, agent line and reply line.
 */
export const VALUE_CHARS = 600;
export const SUMMARY_CHARS = 1200;

export const isSecretKey = (key: string): boolean => SECRET_KEY.test(key);

/** Escaped (visible-text.ts) and cut in the middle at `max` code points: the tail is never hidden. */
const shown = (text: string, max: number): string[] => cutMiddle(visibleTokens(text), max);

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
 * values as compact JSON. Every key and value is escaped and cut in the middle at 600 code points, the whole at
 * 1,200 (a non-object: its compact JSON). Empty: `''`.
 */
export function summarizeArgs(args: unknown): string {
  if (!isPlainObject(args)) return args === undefined ? '' : shown(compactJson(args), SUMMARY_CHARS).join('');
  const keys = Object.keys(args);
  const ordered = keys.includes('path') ? ['path', ...keys.filter((k) => k !== 'path')] : keys;
  const tokens = ordered.flatMap((key, i) => {
    const value = args[key];
    const text = isSecretKey(key)
      ? [REDACTED]
      : shown(typeof value === 'string' ? value : compactJson(value), VALUE_CHARS);
    return [...(i > 0 ? [', '] : []), ...shown(key, VALUE_CHARS), ': ', ...text];
  });
  return cutMiddle(tokens, SUMMARY_CHARS).join('');
}

/** How a summary reads in a prompt: an empty one is shown as `(none)` [baton decision]. */
export const promptSummary = (summary: string): string => (summary === '' ? '(none)' : summary);
