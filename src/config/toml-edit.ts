// Format-preserving edit of `risk_profiles.<p>.delegation_policy.mode`: only that value's span changes (or one
// line is inserted when the key is absent); comments, blank lines, order, quoting and spacing stay as written.
import { parse } from 'smol-toml';
import { cannotEdit, notToml, profileNotDefined, unsafeEdit } from './edit-messages.ts';
import { formatPath } from './toml-path.ts';
import { allValues, type ScannedTable, type ScannedValue, scanToml, TomlScanError } from './toml-scan.ts';
import type { RiskProfile } from './types.ts';

export type DelegationPolicyMode = RiskProfile['delegation_policy']['mode'];

export type TomlEditResult = { ok: true; text: string } | { ok: false; error: string };

const samePath = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((s, i) => s === b[i]);
const startsWith = (a: readonly string[], prefix: readonly string[]) =>
  a.length >= prefix.length && prefix.every((s, i) => s === a[i]);

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

/** Inserts `line` (no newline) on a new line right after offset `lineEnd` (the end of an existing line). */
function insertLineAfter(text: string, lineEnd: number, line: string, eol: string): string {
  return splice(text, lineEnd, lineEnd, `${eol}${line}`);
}

/** Adds `entry` (e.g. `mode = "allow"`) to an inline table, after its last entry or into `{}`. */
function addToInline(text: string, table: ScannedValue, entry: string): string {
  const last = table.inner?.at(-1);
  if (last) return splice(text, last.valueEnd, last.valueEnd, `, ${entry}`);
  return splice(text, table.valueStart, table.valueEnd, `{ ${entry} }`);
}

function edit(
  text: string,
  tables: ScannedTable[],
  profile: string,
  mode: DelegationPolicyMode,
): string | null {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const quoted = `"${mode}"`;
  const values = allValues(tables);
  const profilePath = ['risk_profiles', profile];
  const policyPath = [...profilePath, 'delegation_policy'];

  const current = values.find((v) => samePath(v.path, [...policyPath, 'mode']));
  if (current) {
    const written = current.kind === 'literal' ? `'${mode}'` : quoted;
    return splice(text, current.valueStart, current.valueEnd, written);
  }

  const inlinePolicy = values.find((v) => samePath(v.path, policyPath) && v.kind === 'inline-table');
  if (inlinePolicy) return addToInline(text, inlinePolicy, `mode = ${quoted}`);

  const policyTable = tables.find((t) => !t.array && samePath(t.path, policyPath));
  if (policyTable) return appendToTable(text, policyTable, `mode = ${quoted}`, eol);

  const entry = `delegation_policy = { mode = ${quoted} }`;
  const profileTable = tables.find((t) => !t.array && samePath(t.path, profilePath));
  if (profileTable) return appendToTable(text, profileTable, entry, eol);

  const inlineProfile = values.find((v) => samePath(v.path, profilePath) && v.kind === 'inline-table');
  if (inlineProfile) return addToInline(text, inlineProfile, entry);

  // Keys of the profile written as dotted keys in an outer table, e.g. `ops.level = "full"` in [risk_profiles].
  for (const t of [...tables].reverse()) {
    const line = [...t.lines].reverse().find((l) => startsWith(l.path, profilePath));
    if (!line || t.path.length > profilePath.length) continue;
    const prefix = formatPath(profilePath.slice(t.path.length));
    return insertLineAfter(text, line.lineEnd, `${line.indent}${prefix}.${entry}`, eol);
  }

  // Only sub-tables such as [risk_profiles.<p>.approval_route]: a new sub-table goes before the first one.
  const sub = tables.find((t) => t.path.length > profilePath.length && startsWith(t.path, profilePath));
  if (sub) {
    const header = `[${formatPath(policyPath)}]${eol}mode = ${quoted}${eol}${eol}`;
    return splice(text, sub.headerStart, sub.headerStart, header);
  }
  return null;
}

/** After the table's last key line (its trailing comment stays on that line), or after its header. */
export function appendToTable(text: string, table: ScannedTable, line: string, eol: string): string {
  const last = table.lines.at(-1);
  if (last) return insertLineAfter(text, last.lineEnd, `${last.indent}${line}`, eol);
  const indent = /^[ \t]*/.exec(text.slice(text.lastIndexOf('\n', table.headerStart - 1) + 1))?.[0] ?? '';
  return insertLineAfter(text, table.headerLineEnd, `${indent}${line}`, eol);
}

/**
 * Sets `risk_profiles.<profile>.delegation_policy.mode` in TOML text, changing nothing else. The result is
 * checked: it must parse to the input's document with only that value changed, or the edit is refused.
 */
export function setDelegationPolicyMode(
  text: string,
  profile: string,
  mode: DelegationPolicyMode,
): TomlEditResult {
  let before: Record<string, unknown>;
  let tables: ScannedTable[];
  try {
    before = parse(text);
    tables = scanToml(text);
  } catch (err) {
    const why = err instanceof TomlScanError ? err.message : notToml;
    return { ok: false, error: cannotEdit(why) };
  }
  const edited = edit(text, tables, profile, mode);
  if (edited === null) return { ok: false, error: profileNotDefined(profile) };
  const expected = withMode(before, profile, mode);
  let after: unknown;
  try {
    after = parse(edited);
  } catch {
    after = undefined;
  }
  if (!sameValue(after, expected))
    return {
      ok: false,
      error: unsafeEdit(profile),
    };
  return { ok: true, text: edited };
}

function asTable(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date)
    ? (v as Record<string, unknown>)
    : undefined;
}

/** The parsed document with the one value set (what the edited text must parse to); copies along the path. */
function withMode(doc: Record<string, unknown>, profile: string, mode: string): Record<string, unknown> {
  const profiles = { ...asTable(doc.risk_profiles) };
  const p = { ...asTable(profiles[profile]) };
  p.delegation_policy = { ...asTable(p.delegation_policy), mode };
  profiles[profile] = p;
  return { ...doc, risk_profiles: profiles };
}

export function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date)
    return (
      a instanceof Date && b instanceof Date && a.constructor === b.constructor && String(a) === String(b)
    );
  if (Array.isArray(a) || Array.isArray(b))
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]))
    );
  const ta = asTable(a);
  const tb = asTable(b);
  if (ta || tb) {
    if (!ta || !tb) return false;
    const ka = Object.keys(ta);
    return ka.length === Object.keys(tb).length && ka.every((k) => k in tb && sameValue(ta[k], tb[k]));
  }
  return Object.is(a, b);
}
