// A parser for the block-YAML subset that docker-compose.yml uses: maps, lists, quoted and plain scalars,
// flow lists of scalars, comments. Anything outside it (anchors, flow maps, multi-line strings) throws, so
// a compose file that grows past the subset fails the deploy test loudly instead of being misread.
// Scalars stay strings; a key with no value is null.

export type YamlValue = string | null | YamlValue[] | { [key: string]: YamlValue };

interface Line {
  indent: number;
  text: string;
  no: number;
}

export function parseYaml(source: string): YamlValue {
  const lines: Line[] = [];
  source.split('\n').forEach((raw, i) => {
    const text = stripComment(raw).trimEnd();
    if (text.trim() === '') return;
    if (/^\s*(---|\.\.\.)\s*$/.test(text)) throw new Error(`line ${i + 1}: multiple documents`);
    lines.push({ indent: text.length - text.trimStart().length, text: text.trim(), no: i + 1 });
  });
  const at = { i: 0 };
  const value = parseBlock(lines, at, lines[0]?.indent ?? 0);
  if (at.i < lines.length) throw new Error(`line ${lines[at.i]?.no}: unexpected indentation`);
  return value;
}

function stripComment(raw: string): string {
  let quote: string | null = null;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(raw[i - 1] ?? ''))) return raw.slice(0, i);
  }
  return raw;
}

function parseBlock(lines: Line[], at: { i: number }, indent: number): YamlValue {
  const first = lines[at.i];
  if (!first) return null;
  return first.text === '-' || first.text.startsWith('- ')
    ? parseList(lines, at, indent)
    : parseMap(lines, at, indent);
}

function parseList(lines: Line[], at: { i: number }, indent: number): YamlValue[] {
  const out: YamlValue[] = [];
  for (
    let line = lines[at.i];
    line && line.indent === indent && /^-( |$)/.test(line.text);
    line = lines[at.i]
  ) {
    const rest = line.text.slice(1).trim();
    if (rest === '') {
      at.i++;
      out.push(nested(lines, at, indent));
    } else if (splitKey(rest)) {
      // "- key: value" opens a map whose further keys sit two columns in.
      lines[at.i] = { indent: indent + 2, text: rest, no: line.no };
      out.push(parseMap(lines, at, indent + 2));
    } else {
      at.i++;
      out.push(scalar(rest, line.no));
    }
  }
  return out;
}

function parseMap(lines: Line[], at: { i: number }, indent: number): { [key: string]: YamlValue } {
  const out: { [key: string]: YamlValue } = {};
  for (let line = lines[at.i]; line && line.indent === indent; line = lines[at.i]) {
    const kv = splitKey(line.text);
    if (!kv) throw new Error(`line ${line.no}: expected "key: value", found ${JSON.stringify(line.text)}`);
    const [key, rest] = kv;
    if (Object.hasOwn(out, key)) throw new Error(`line ${line.no}: duplicate key ${key}`);
    at.i++;
    if (rest !== '') out[key] = scalar(rest, line.no);
    else {
      const next = lines[at.i];
      // A list may sit at its key's own indentation (compose files do both).
      const listHere = next && next.indent === indent && /^-( |$)/.test(next.text);
      out[key] = listHere ? parseList(lines, at, indent) : nested(lines, at, indent);
    }
  }
  return out;
}

function nested(lines: Line[], at: { i: number }, parentIndent: number): YamlValue {
  const next = lines[at.i];
  return next && next.indent > parentIndent ? parseBlock(lines, at, next.indent) : null;
}

function splitKey(text: string): [string, string] | null {
  const m = /^("[^"]*"|'[^']*'|[A-Za-z0-9_.\-/@]+):(?:\s+(.*))?$/.exec(text);
  if (!m?.[1]) return null;
  return [unquote(m[1]), (m[2] ?? '').trim()];
}

function scalar(text: string, no: number): YamlValue {
  if (/^[&*!|>{]/.test(text)) throw new Error(`line ${no}: unsupported YAML: ${text}`);
  if (text.startsWith('[')) {
    if (!text.endsWith(']')) throw new Error(`line ${no}: unclosed flow list`);
    const inner = text.slice(1, -1).trim();
    return inner === '' ? [] : splitFlow(inner).map((item) => scalar(item.trim(), no));
  }
  if (text === '~' || text === 'null') return null;
  return unquote(text);
}

function splitFlow(inner: string): string[] {
  const items: string[] = [];
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ',') {
      items.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  items.push(inner.slice(start));
  return items;
}

function unquote(text: string): string {
  if (text.startsWith('"') && text.endsWith('"') && text.length >= 2) return JSON.parse(text) as string;
  if (text.startsWith("'") && text.endsWith("'") && text.length >= 2)
    return text.slice(1, -1).replaceAll("''", "'");
  return text;
}
