// Quote-aware splitting of a command line into an argument vector, refusing anything that would need a shell.
import { command as text } from './security-messages.ts';

export type LexResult = { ok: true; argv: string[] } | { ok: false; error: string };

const EXPANSION_START = /[A-Za-z0-9_{?!$#*@-]/;

/** Unquoted characters that only a shell gives meaning to, with the name used in the refusal. */
function unquotedMetachar(c: string, next: string | undefined): string | null {
  switch (c) {
    case ';':
      return "';'";
    case '&':
      return next === '&' ? "'&&'" : "'&'";
    case '|':
      return next === '|' ? "'||'" : "'|'";
    case '<':
    case '>':
      return `a redirection ('${c}')`;
    case '(':
    case ')':
      return `a subshell parenthesis ('${c}')`;
    case '\n':
    case '\r':
      return 'a newline';
    default:
      return null;
  }
}

/** `$(` and backticks are command substitution; `$NAME` / `${...}` would be expanded by a shell. */
function dollarOrBacktick(c: string, next: string | undefined): string | null {
  if (c === '`') return text.metachar('a backtick command substitution');
  if (c === '$' && next === '(') return text.metachar("'$(' command substitution");
  if (c === '$' && next !== undefined && EXPANSION_START.test(next)) return text.expansion();
  return null;
}

export function splitCommand(input: string): LexResult {
  const argv: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    const next = input[i + 1];
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && next !== undefined && '"\\$`'.includes(next)) {
        word += next;
        i++;
      } else {
        const err = dollarOrBacktick(c, next);
        if (err) return { ok: false, error: err };
        word += c;
      }
      continue;
    }
    if (c === ' ' || c === '\t') {
      if (inWord) argv.push(word);
      word = '';
      inWord = false;
      continue;
    }
    const meta = unquotedMetachar(c, next);
    if (meta) return { ok: false, error: text.metachar(meta) };
    const subst = dollarOrBacktick(c, next);
    if (subst) return { ok: false, error: subst };
    if (c === '#' && !inWord) return { ok: false, error: text.metachar("a comment ('#')") };
    inWord = true;
    if (c === "'" || c === '"') quote = c;
    else if (c === '\\') {
      if (next === undefined) return { ok: false, error: text.danglingEscape() };
      if (next === '\n' || next === '\r') return { ok: false, error: text.metachar('a newline') };
      word += next;
      i++;
    } else word += c;
  }
  if (quote) return { ok: false, error: text.unterminatedQuote() };
  if (inWord) argv.push(word);
  return { ok: true, argv };
}
