// Adds a `[gateway.web_users.<login>]` table at the end of TOML text (what `baton web add-user` writes), changing
// nothing else; the result must parse to the input's document plus that one entry, or the edit is refused.
import { parse } from 'smol-toml';
import type { TomlEditResult } from './toml-edit.ts';

const tableOf = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

export function addWebUserEntry(
  text: string,
  login: string,
  hash: string,
  operator: boolean,
): TomlEditResult {
  let before: Record<string, unknown>;
  try {
    before = parse(text);
  } catch {
    return { ok: false, error: 'the config file is not valid TOML; fix it first (baton config check)' };
  }
  const gateway = tableOf(before.gateway);
  if (Object.hasOwn(tableOf(gateway.web_users), login))
    return { ok: false, error: `gateway.web_users.${login} already exists; remove it first to replace it` };
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = [
    `[gateway.web_users.${login}]`,
    `secret_hash = "${hash}"`,
    ...(operator ? ['operator = true'] : []),
  ];
  const sep = text === '' || text.endsWith(eol + eol) ? '' : text.endsWith(eol) ? eol : eol + eol;
  const edited = `${text}${sep}${lines.join(eol)}${eol}`;
  const entry = { secret_hash: hash, ...(operator ? { operator: true } : {}) };
  const expected = {
    ...before,
    gateway: { ...gateway, web_users: { ...tableOf(gateway.web_users), [login]: entry } },
  };
  let after: unknown;
  try {
    after = parse(edited);
  } catch {
    after = undefined;
  }
  // e.g. web_users written inline in [gateway]: a new table header cannot extend it.
  if (canonical(after) !== canonical(expected))
    return { ok: false, error: 'cannot add the entry safely to this file; add the printed lines by hand' };
  return { ok: true, text: edited };
}

/** Prototype-free comparison (the parser's tables and a spread copy differ only there); keys sorted. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => {
    if (typeof x === 'bigint') return `${x}n`;
    if (x instanceof Date) return `date:${x.toISOString()}`;
    if (typeof x === 'object' && x !== null && !Array.isArray(x))
      return Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1)));
    return x;
  });
}
