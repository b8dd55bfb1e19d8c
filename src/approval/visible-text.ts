// Text a person must read before approving: nothing in it may be invisible, move the cursor, reorder what follows
// or start a line of its own (approvals.md §4). Printable characters pass; every other one shows as an escape.

/** Control (Cc), format (Cf: bidi, zero-width, BOM), line/paragraph separators (Zl, Zp) and lone surrogates. */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const SPACE = /\p{Zs}/u;
/** A run of more spaces than this shows as `[␠×N]`: a long blank cannot push the rest out of view. */
const MAX_SPACE_RUN = 3;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeChar(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const cp = ch.codePointAt(0)!;
  const hex = cp.toString(16);
  if (cp <= 0xff) return `\\x${hex.padStart(2, '0')}`;
  return cp <= 0xffff ? `\\u${hex.padStart(4, '0')}` : `\\u{${hex}}`;
}

/**
 * The text as display tokens: one per printable character, one escape per hidden character, one `[␠×N]` per long
 * space run. Cutting between tokens never splits an escape or a space run.
 */
export function visibleTokens(text: string): string[] {
  const out: string[] = [];
  const chars = [...text];
  for (let i = 0; i < chars.length; ) {
    const ch = chars[i]!;
    if (SPACE.test(ch)) {
      let j = i;
      while (j < chars.length && SPACE.test(chars[j]!)) j++;
      const run = j - i;
      if (run > MAX_SPACE_RUN) out.push(`[␠×${run}]`);
      else out.push(...chars.slice(i, j));
      i = j;
      continue;
    }
    out.push(HIDDEN.test(ch) ? escapeChar(ch) : ch);
    i++;
  }
  return out;
}

export const visibleText = (text: string): string => visibleTokens(text).join('');

const pointsOf = (tokens: readonly string[]) => tokens.reduce((n, t) => n + [...t].length, 0);

/**
 * Tokens of at most `max` code points kept whole; longer: the first and the last `max / 2` code points (on token
 * boundaries) with ` … (+N chars) … ` between, N the code points left out. The tail stays: it can change meaning.
 */
export function cutMiddle(tokens: readonly string[], max: number): string[] {
  const total = pointsOf(tokens);
  if (total <= max) return [...tokens];
  const half = Math.floor(max / 2);
  const head: string[] = [];
  let headLen = 0;
  for (const t of tokens) {
    const n = [...t].length;
    if (headLen + n > half) break;
    head.push(t);
    headLen += n;
  }
  const tail: string[] = [];
  let tailLen = 0;
  for (let i = tokens.length - 1; i >= head.length; i--) {
    const n = [...tokens[i]!].length;
    if (tailLen + n > half) break;
    tail.unshift(tokens[i]!);
    tailLen += n;
  }
  return [...head, ` … (+${total - headLen - tailLen} chars) … `, ...tail];
}
