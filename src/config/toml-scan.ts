// A TOML scanner that records where every key's value sits in the text, so an edit can replace one value
// span and leave every other byte (comments, blank lines, order, quoting, spacing) as written.

export type ValueKind = 'basic' | 'literal' | 'ml-basic' | 'ml-literal' | 'inline-table' | 'array' | 'other';

export interface ScannedValue {
  /** Full key path from the document root. */
  path: string[];
  kind: ValueKind;
  valueStart: number;
  valueEnd: number;
  /** Inline table: the entries inside, and the offset of its closing `}`. */
  inner?: ScannedValue[];
  closeBrace?: number;
}

/** A key/value line of a table (or of the root, before the first header). */
export interface ScannedLine extends ScannedValue {
  /** The key as written, relative to its table. */
  keyPath: string[];
  lineStart: number;
  /** End of the line's content (after any trailing comment), before the newline. */
  lineEnd: number;
  indent: string;
}

export interface ScannedTable {
  /** Empty for the root (the key lines before the first header). */
  path: string[];
  array: boolean;
  headerStart: number;
  headerLineEnd: number;
  lines: ScannedLine[];
}

export class TomlScanError extends Error {
  override readonly name = 'TomlScanError';
}

const BARE = /[A-Za-z0-9_-]/;

export function scanToml(text: string): ScannedTable[] {
  let i = 0;
  const fail = (what: string): never => {
    const line = text.slice(0, i).split('\n').length;
    throw new TomlScanError(`${what} at line ${line}`);
  };
  const skipSpaces = () => {
    while (text[i] === ' ' || text[i] === '\t') i++;
  };
  const skipComment = () => {
    if (text[i] === '#') while (i < text.length && text[i] !== '\n') i++;
  };
  /** Whitespace, newlines and comments (inside arrays and between lines). */
  const skipAll = () => {
    for (;;) {
      skipSpaces();
      if (text[i] === '#') skipComment();
      else if (text[i] === '\n' || text[i] === '\r') i++;
      else return;
    }
  };
  const lineEndFrom = (from: number): number => {
    let e = from;
    while (e < text.length && text[e] !== '\n') e++;
    return text[e - 1] === '\r' ? e - 1 : e;
  };

  function basicString(): string {
    i++; // opening quote
    let out = '';
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\n') fail('newline in a string');
      if (text[i] === '\\') {
        const c = text[i + 1];
        const simple: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', e: '\x1b' };
        if (c === '"' || c === '\\') out += c;
        else if (c !== undefined && c in simple) out += simple[c];
        else if (c === 'u' || c === 'U' || c === 'x') {
          const len = c === 'u' ? 4 : c === 'U' ? 8 : 2;
          out += String.fromCodePoint(Number.parseInt(text.slice(i + 2, i + 2 + len), 16));
          i += len;
        } else fail('bad escape');
        i += 2;
      } else out += text[i++];
    }
    if (text[i] !== '"') fail('unterminated string');
    i++;
    return out;
  }

  function literalString(): string {
    const end = text.indexOf("'", i + 1);
    if (end < 0) fail('unterminated string');
    const s = text.slice(i + 1, end);
    i = end + 1;
    return s;
  }

  function simpleKey(): string {
    if (text[i] === '"') return basicString();
    if (text[i] === "'") return literalString();
    const start = i;
    while (i < text.length && BARE.test(text[i] ?? '')) i++;
    if (i === start) fail('expected a key');
    return text.slice(start, i);
  }

  function dottedKey(): string[] {
    const keys = [simpleKey()];
    for (;;) {
      skipSpaces();
      if (text[i] !== '.') return keys;
      i++;
      skipSpaces();
      keys.push(simpleKey());
    }
  }

  function multiline(quote: '"""' | "'''"): void {
    i += 3;
    for (;;) {
      const at = text.indexOf(quote, i);
      if (at < 0) fail('unterminated multi-line string');
      if (quote === '"""') {
        let slashes = 0;
        for (let k = at - 1; k >= i && text[k] === '\\'; k--) slashes++;
        if (slashes % 2 === 1) {
          i = at + 1;
          continue;
        }
      }
      i = at + 3;
      // Up to two more quotes may close the string (`""""` ends with one quote inside).
      while (text[i] === quote[0] && text.slice(i, i + 3) !== quote) i++;
      return;
    }
  }

  function value(path: string[]): ScannedValue {
    const start = i;
    const c = text[i];
    let kind: ValueKind = 'other';
    let inner: ScannedValue[] | undefined;
    let closeBrace: number | undefined;
    if (text.startsWith('"""', i)) {
      multiline('"""');
      kind = 'ml-basic';
    } else if (text.startsWith("'''", i)) {
      multiline("'''");
      kind = 'ml-literal';
    } else if (c === '"') {
      basicString();
      kind = 'basic';
    } else if (c === "'") {
      literalString();
      kind = 'literal';
    } else if (c === '[') {
      i++;
      for (;;) {
        skipAll();
        if (text[i] === ']') break;
        value([...path, '[]']);
        skipAll();
        if (text[i] === ',') i++;
        else if (text[i] !== ']') fail('expected , or ] in an array');
      }
      i++;
      kind = 'array';
    } else if (c === '{') {
      i++;
      inner = [];
      for (;;) {
        skipAll();
        if (text[i] === '}') break;
        const key = dottedKey();
        skipSpaces();
        if (text[i] !== '=') fail('expected =');
        i++;
        skipSpaces();
        const v = value([...path, ...key]);
        inner.push(v);
        skipAll();
        if (text[i] === ',') i++;
        else if (text[i] !== '}') fail('expected , or } in an inline table');
      }
      closeBrace = i;
      i++;
      kind = 'inline-table';
    } else {
      while (i < text.length && !',]}#\n\r'.includes(text[i] ?? '')) i++;
      while (i > start && (text[i - 1] === ' ' || text[i - 1] === '\t')) i--;
      if (i === start) fail('expected a value');
    }
    return {
      path,
      kind,
      valueStart: start,
      valueEnd: i,
      ...(inner ? { inner } : {}),
      ...(closeBrace !== undefined ? { closeBrace } : {}),
    };
  }

  const tables: ScannedTable[] = [{ path: [], array: false, headerStart: 0, headerLineEnd: 0, lines: [] }];
  for (;;) {
    skipAll();
    if (i >= text.length) break;
    const lineStart = text.lastIndexOf('\n', i - 1) + 1;
    if (text[i] === '[') {
      const headerStart = i;
      const array = text[i + 1] === '[';
      i += array ? 2 : 1;
      skipSpaces();
      const path = dottedKey();
      skipSpaces();
      if (!text.startsWith(array ? ']]' : ']', i)) fail('expected ] after a table name');
      i += array ? 2 : 1;
      skipSpaces();
      skipComment();
      tables.push({ path, array, headerStart, headerLineEnd: lineEndFrom(i), lines: [] });
      continue;
    }
    const table = tables[tables.length - 1] as ScannedTable;
    const keyPath = dottedKey();
    skipSpaces();
    if (text[i] !== '=') fail('expected =');
    i++;
    skipSpaces();
    const v = value([...table.path, ...keyPath]);
    skipSpaces();
    skipComment();
    if (i < text.length && text[i] !== '\n' && text[i] !== '\r') fail('expected the end of the line');
    table.lines.push({
      ...v,
      keyPath,
      lineStart,
      lineEnd: lineEndFrom(i),
      indent: text.slice(lineStart, lineStart + (/^[ \t]*/.exec(text.slice(lineStart))?.[0].length ?? 0)),
    });
  }
  return tables;
}

/** Every value in the document, inline-table entries included, with its full path. */
export function allValues(tables: readonly ScannedTable[]): ScannedValue[] {
  const out: ScannedValue[] = [];
  const walk = (v: ScannedValue) => {
    out.push(v);
    for (const x of v.inner ?? []) walk(x);
  };
  for (const t of tables) for (const l of t.lines) walk(l);
  return out;
}
