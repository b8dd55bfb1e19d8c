// Comparing a secret someone sent with the one configured: constant time, length included (both sides are hashed
// to the same size first). Used for bearer tokens, login tokens, CSRF tokens and webhook secrets.
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** True only when `given` is present, non-empty and equal to `expected`. */
export function sameSecret(given: string | undefined, expected: string): boolean {
  const same = timingSafeEqual(digest(given ?? ''), digest(expected));
  return given !== undefined && given !== '' && same;
}
