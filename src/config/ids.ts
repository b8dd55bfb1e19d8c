// Ids that end up in file paths, URLs, Redis keys and BullMQ job ids: table keys the operator writes are checked
// against an allowlist here, so `[agents."../../x"]` cannot name a workspace outside the data dir (§3 texts).

import { idPattern, invalid, WEB_LOGIN_RESERVED } from './config-messages.ts';
import { ownEntry } from './lookup.ts';
import { RESERVED_WEB_LOGINS, WEB_LOGIN_RE, WEB_LOGIN_TEXT } from './secret-hash-form.ts';
import { formatPath, isTable } from './toml-path.ts';
import type { Diagnostic } from './types.ts';

/** Aliases and names: path segments, URL segments, key and job-id parts. */
export const ID_PATTERN = /^[A-Za-z0-9_-]+$/;
export const ID_PATTERN_TEXT = '[A-Za-z0-9_-]+';
/** Provider aliases may hold dots (`openai."gpt-4.1"`): only ever looked up, never a path segment or key part. */
export const PROVIDER_ALIAS_PATTERN = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
export const PROVIDER_ALIAS_PATTERN_TEXT = '[A-Za-z0-9_-]+ (dots only between such parts)';

export const isId = (value: string): boolean => ID_PATTERN.test(value);

const tableAt = (value: unknown): Record<string, unknown> => (isTable(value) ? value : {});

export function checkIds(doc: Record<string, unknown>): Diagnostic[] {
  const out: Diagnostic[] = [];
  const keysOf = (at: readonly string[], kind: string, pattern = ID_PATTERN, text = ID_PATTERN_TEXT) => {
    let table: unknown = doc;
    for (const seg of at) table = ownEntry(tableAt(table), seg);
    for (const key of Object.keys(tableAt(table))) {
      if (pattern.test(key)) continue;
      const path = formatPath([...at, key]);
      out.push({ severity: 'error', path, message: invalid(path, idPattern(kind, text)) });
    }
  };
  keysOf(['agents'], 'agent alias');
  for (const type of ['telegram', 'discord', 'slack', 'web']) keysOf(['channels', type], 'channel alias');
  keysOf(['cron'], 'cron job alias');
  keysOf(['risk_profiles'], 'risk profile name');
  keysOf(['runtime_profiles'], 'runtime profile name');
  keysOf(['peer_groups'], 'peer group name');
  // A web login becomes the peer id `web:<login>`: lower case only, so one person is one id.
  keysOf(['gateway', 'web_users'], 'web login', WEB_LOGIN_RE, WEB_LOGIN_TEXT);
  for (const login of Object.keys(tableAt(ownEntry(tableAt(doc.gateway), 'web_users')))) {
    if (!RESERVED_WEB_LOGINS.has(login)) continue;
    const path = formatPath(['gateway', 'web_users', login]);
    out.push({ severity: 'error', path, message: invalid(path, `"${login}" ${WEB_LOGIN_RESERVED}`) });
  }
  keysOf(['providers', 'models'], 'provider type');
  for (const type of Object.keys(tableAt(ownEntry(tableAt(doc.providers), 'models')))) {
    keysOf(
      ['providers', 'models', type],
      'provider alias',
      PROVIDER_ALIAS_PATTERN,
      PROVIDER_ALIAS_PATTERN_TEXT,
    );
  }
  return out;
}
