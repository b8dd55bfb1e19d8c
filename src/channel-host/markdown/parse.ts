// A small Markdown reader for the subset models write in chat replies (headings, emphasis, code, fences, links,
// lists, quotes). Anything it does not recognise, or recognises only half (an unclosed `**`), stays literal text:
// the renderers escape literal text, so odd input can only ever look plain, never break the platform's parser.

export type Inline =
  | { t: 'text'; v: string }
  | { t: 'code'; v: string }
  | { t: 'b' | 'i' | 's'; c: Inline[] }
  | { t: 'a'; href: string; c: Inline[] };

export type Block =
  | { t: 'line'; c: Inline[] }
  | { t: 'heading'; c: Inline[] }
  | { t: 'item'; indent: string; marker: string; c: Inline[] }
  | { t: 'quote'; lines: Inline[][] }
  | { t: 'pre'; lang: string; code: string };

/** Link targets kept as links (allowlist); anything else (javascript:, data:, relative) stays literal text. */
const SAFE_URL = /^(?:https?:\/\/|mailto:)[^\s<>"'`|]+$/i;
/** A fence's info word becomes a language class only when it looks like one. */
const SAFE_LANG = /^[A-Za-z0-9_+#.-]{1,32}$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const HEADING = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const QUOTE = /^ {0,3}>[ ]?(.*)$/;
const BULLET = /^(\s*)[-*+][ \t]+(.*)$/;
const ORDERED = /^(\s*)(\d{1,9}[.)])[ \t]+(.*)$/;
/** Emphasis nested deeper than this is read as text (bounds recursion on adversarial input). */
const MAX_DEPTH = 6;

export function parseMarkdown(src: string): Block[] {
  const lines = src.replaceAll('\r\n', '\n').split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1] ?? '```';
      const body: string[] = [];
      let j = i + 1;
      for (; j < lines.length; j++) {
        const l = lines[j] ?? '';
        if (isFenceClose(l, marker)) break;
        body.push(l);
      }
      const lang = fence[2] ?? '';
      // An unclosed fence runs to the end of the text, as in CommonMark.
      out.push({ t: 'pre', lang: SAFE_LANG.test(lang) ? lang : '', code: body.join('\n') });
      i = j;
      continue;
    }
    const quote = QUOTE.exec(line);
    if (quote) {
      const prev = out.at(-1);
      const content = inline(quote[1] ?? '');
      if (prev?.t === 'quote' && lines[i - 1] !== undefined && QUOTE.test(lines[i - 1] ?? ''))
        prev.lines.push(content);
      else out.push({ t: 'quote', lines: [content] });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      out.push({ t: 'heading', c: inline(heading[1] ?? '') });
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet && !/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      out.push({ t: 'item', indent: bullet[1] ?? '', marker: '•', c: inline(bullet[2] ?? '') });
      continue;
    }
    const ordered = ORDERED.exec(line);
    if (ordered) {
      out.push({
        t: 'item',
        indent: ordered[1] ?? '',
        marker: ordered[2] ?? '',
        c: inline(ordered[3] ?? ''),
      });
      continue;
    }
    out.push({ t: 'line', c: inline(line) });
  }
  return out;
}

function isFenceClose(line: string, open: string): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
  return !!m && (m[1] ?? '')[0] === open[0] && (m[1] ?? '').length >= open.length;
}

const PUNCT = /[!-/:-@[-`{-~]/;
const WORD = /[\p{L}\p{N}]/u;

/** Inline spans of one line. */
export function inline(s: string, depth = 0): Inline[] {
  const out: Inline[] = [];
  let text = '';
  const flush = () => {
    if (text) out.push({ t: 'text', v: text });
    text = '';
  };
  /** Delimiters already known to have no closer after a position: keeps adversarial lines linear-ish. */
  const noCloser = new Map<string, number>();
  let i = 0;
  while (i < s.length) {
    const ch = s[i] ?? '';
    if (ch === '\\' && PUNCT.test(s[i + 1] ?? '')) {
      text += s[i + 1];
      i += 2;
      continue;
    }
    if (ch === '`') {
      const span = codeSpan(s, i);
      if (span) {
        flush();
        out.push({ t: 'code', v: span.code });
        i = span.end;
      } else {
        const run = runLength(s, i, '`');
        text += s.slice(i, i + run);
        i += run;
      }
      continue;
    }
    if (ch === '[') {
      const link = linkAt(s, i, depth);
      if (link) {
        flush();
        out.push(link.node);
        i = link.end;
        continue;
      }
    }
    const delim = delimiterAt(s, i);
    if (delim && depth < MAX_DEPTH && canOpen(s, i, delim)) {
      const failedFrom = noCloser.get(delim);
      const close = failedFrom !== undefined && failedFrom <= i ? -1 : findCloser(s, i + delim.length, delim);
      if (close > i + delim.length) {
        flush();
        const kind = delim === '~~' ? 's' : delim.length === 2 ? 'b' : 'i';
        out.push({ t: kind, c: inline(s.slice(i + delim.length, close), depth + 1) });
        i = close + delim.length;
        continue;
      }
      if (close < 0 && failedFrom === undefined) noCloser.set(delim, i);
    }
    if (delim) {
      text += delim;
      i += delim.length;
      continue;
    }
    text += ch;
    i++;
  }
  flush();
  return out;
}

function runLength(s: string, at: number, ch: string): number {
  let n = 0;
  while (s[at + n] === ch) n++;
  return n;
}

/** A code span opened by the backtick run at `at`: closed by a run of the same length. */
function codeSpan(s: string, at: number): { code: string; end: number } | null {
  const n = runLength(s, at, '`');
  let j = at + n;
  while (j < s.length) {
    const k = s.indexOf('`', j);
    if (k < 0) return null;
    const m = runLength(s, k, '`');
    if (m === n) {
      let code = s.slice(at + n, k);
      if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ')) code = code.slice(1, -1);
      return code ? { code, end: k + m } : null;
    }
    j = k + m;
  }
  return null;
}

function delimiterAt(s: string, i: number): string | null {
  const two = s.slice(i, i + 2);
  if (two === '**' || two === '__' || two === '~~') return two;
  const one = s[i];
  return one === '*' || one === '_' ? one : null;
}

/** Opening needs a non-space after it; `_` also needs no letter before it (snake_case stays as is). */
function canOpen(s: string, i: number, d: string): boolean {
  const after = s[i + d.length] ?? '';
  if (!after || /\s/.test(after)) return false;
  if (d[0] === '_' && WORD.test(s[i - 1] ?? '')) return false;
  return true;
}

/** Index of the matching closer, skipping code spans and escapes; -1 when there is none. */
function findCloser(s: string, from: number, d: string): number {
  let j = from;
  while (j < s.length) {
    const ch = s[j];
    if (ch === '\\') {
      j += 2;
      continue;
    }
    if (ch === '`') {
      const span = codeSpan(s, j);
      j = span ? span.end : j + runLength(s, j, '`');
      continue;
    }
    if (s.startsWith(d, j) && j > from && !/\s/.test(s[j - 1] ?? '')) {
      // In a run longer than the closer (`***`), the closer is the run's end: `***a***` is bold around italic.
      const run = runLength(s, j, d[0] ?? '');
      if (d.length === 2 && run > 2) j += run - 2;
      const next = s[j + d.length] ?? '';
      // `**a*` must not close `*` with half of `**`, and `_` closes only at a word's end.
      const sameAfter = next === d[0] && d.length === 1;
      const wordAfter = d[0] === '_' && WORD.test(next);
      if (!sameAfter && !wordAfter) return j;
      j += runLength(s, j, d[0] ?? '');
      continue;
    }
    j++;
  }
  return -1;
}

/** `[text](url)` with an allowlisted url; null keeps the bracket as text. */
function linkAt(s: string, at: number, depth: number): { node: Inline; end: number } | null {
  let level = 0;
  let j = at;
  for (; j < s.length; j++) {
    if (s[j] === '\\') j++;
    else if (s[j] === '[') level++;
    else if (s[j] === ']' && --level === 0) break;
  }
  if (j >= s.length || s[j + 1] !== '(') return null;
  const close = s.indexOf(')', j + 2);
  if (close < 0) return null;
  const href = s.slice(j + 2, close).trim();
  if (!SAFE_URL.test(href)) return null;
  const label = s.slice(at + 1, j);
  return {
    node: { t: 'a', href, c: label ? inline(label, depth + 1) : [{ t: 'text', v: href }] },
    end: close + 1,
  };
}
