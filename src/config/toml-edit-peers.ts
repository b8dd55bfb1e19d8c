// Format-preserving edit that admits one sender: its id is added to `peer_groups.<g>.external_peers` (one value
// span changes, or one line is added), or a new `[peer_groups.<g>]` section is appended to the file. Comments,
// blank lines, order and spacing stay as written; the result must parse to the input with only that change.
import { parse } from 'smol-toml';
import { cannotEdit, notToml, unsafePeerEdit } from './edit-messages.ts';
import { appendToTable, sameValue, type TomlEditResult } from './toml-edit.ts';
import { allValues, type ScannedTable, scanToml, TomlScanError } from './toml-scan.ts';

export interface Admission {
  /** The peer group the id goes into: an existing one for this channel and agent, else a new one. */
  group: string;
  /** True when `[peer_groups.<group>]` already exists (the id is added to its external_peers). */
  exists: boolean;
  channel: string;
  agents: string[];
  /** The entry added to external_peers: the sender's id. */
  peer: string;
  /** The group's external_peers once the id is in. */
  externalPeers: string[];
}

const list = (items: readonly string[]) => `[${items.map((s) => JSON.stringify(s)).join(', ')}]`;

/** The entry as TOML, e.g. `[peer_groups.telegram-owners]\nchannel = "telegram.main"\n…` (its admitting keys). */
export function admissionToml(a: Admission): string {
  return [
    `[peer_groups.${a.group}]`,
    `channel = ${JSON.stringify(a.channel)}`,
    `agents = ${list(a.agents)}`,
    `external_peers = ${list(a.externalPeers)}`,
  ].join('\n');
}

const samePath = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((s, i) => s === b[i]);

const asTable = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date)
    ? (v as Record<string, unknown>)
    : {};

function edit(text: string, tables: ScannedTable[], a: Admission, peers: unknown): string | null {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const peer = JSON.stringify(a.peer);
  const groupPath = ['peer_groups', a.group];
  const table = tables.find((t) => !t.array && samePath(t.path, groupPath));
  if (!table) {
    // A group not written as its own table (inline, dotted keys) is not edited: the parse check would refuse it.
    if (allValues(tables).some((v) => v.path.length >= 2 && samePath(v.path.slice(0, 2), groupPath)))
      return null;
    const head = text.length === 0 || text.endsWith('\n') ? text : `${text}${eol}`;
    return `${head}${eol}${admissionToml({ ...a, externalPeers: [a.peer] }).replaceAll('\n', eol)}${eol}`;
  }
  const current = table.lines.find((l) => samePath(l.keyPath, ['external_peers']));
  if (!current) return appendToTable(text, table, `external_peers = [${peer}]`, eol);
  if (current.kind !== 'array' || !Array.isArray(peers)) return null;
  // The id goes first, right after `[`: valid whatever the array's layout, trailing comma or comments.
  const open = current.valueStart + 1;
  const inner = text.slice(open, current.valueEnd - 1);
  if (peers.length === 0 && inner.trim() === '')
    return `${text.slice(0, open)}${peer}${text.slice(current.valueEnd - 1)}`;
  if (peers.length === 0) return null;
  const nl = /^[ \t]*\r?\n([ \t]*)/.exec(inner);
  const insert = nl ? `${eol}${nl[1]}${peer},` : `${peer}, `;
  return `${text.slice(0, open)}${insert}${inner.replace(/^[ \t]+(?!\r?\n)/, '')}${text.slice(current.valueEnd - 1)}`;
}

/** Adds `a.peer` to the external_peers of `[peer_groups.<a.group>]`, creating the group when `!a.exists`. */
export function addExternalPeer(text: string, a: Admission): TomlEditResult {
  let before: Record<string, unknown>;
  let tables: ScannedTable[];
  try {
    before = parse(text);
    tables = scanToml(text);
  } catch (err) {
    return { ok: false, error: cannotEdit(err instanceof TomlScanError ? err.message : notToml) };
  }
  const groups = asTable(before.peer_groups);
  const group = asTable(groups[a.group]);
  const peers = group.external_peers;
  if (Array.isArray(peers) && peers.includes(a.peer)) return { ok: true, text };
  const edited = edit(text, tables, a, peers);
  const expected = {
    ...before,
    peer_groups: {
      ...groups,
      [a.group]: Object.hasOwn(groups, a.group)
        ? { ...group, external_peers: [a.peer, ...(Array.isArray(peers) ? peers : [])] }
        : { channel: a.channel, agents: a.agents, external_peers: [a.peer] },
    },
  };
  let after: unknown;
  try {
    after = edited === null ? undefined : parse(edited);
  } catch {
    after = undefined;
  }
  if (edited === null || !sameValue(after, expected)) return { ok: false, error: unsafePeerEdit(a.group) };
  return { ok: true, text: edited };
}
