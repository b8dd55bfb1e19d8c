// The sessions list (`/`): conversations by channel and agent, most recent first, one page read from the index.
import type { Redis } from 'ioredis';
import type { KeySpace } from '../../core/key-layout.ts';
import { runningTurnsKey } from '../../fleet/running-turns.ts';
import { historyKeys } from '../../session/history-store.ts';
import { type IndexedSession, readSessionIndex } from '../../session/session-index.ts';
import { type Html, html } from '../html.ts';
import { turnControl } from './abort-control.ts';
import * as m from './session-page-messages.ts';
import { abortUrl, splitConversation, transcriptUrl } from './session-url.ts';

export const SESSIONS_PAGE_SIZE = 50;

export interface SessionRow {
  agent: string;
  sessionKey: string;
  lastActivityMs: number;
  messages: number;
  running: boolean;
}

export interface SessionsView {
  total: number;
  offset: number;
  rows: SessionRow[];
}

/**
 * One page: the index's newest (or the given rows), then one LLEN and one HEXISTS of the running mark per
 * row, sent in one write.
 */
export async function readSessions(
  redis: Redis,
  space: KeySpace,
  offset: number,
  only?: IndexedSession[],
): Promise<SessionsView> {
  const page = only
    ? { total: only.length, sessions: only }
    : await readSessionIndex(redis, space, offset, SESSIONS_PAGE_SIZE);
  if (page.sessions.length === 0) return { total: page.total, offset, rows: [] };
  // Single-key commands (the rows' keys sit in several partitions' slots), sent together in one write.
  const [counts, marks] = await Promise.all([
    Promise.all(page.sessions.map((s) => redis.llen(historyKeys(space, s.agent, s.sessionKey)[0]))),
    Promise.all(page.sessions.map((s) => redis.hexists(runningTurnsKey(space, s.sessionKey), s.sessionKey))),
  ]);
  const rows = page.sessions.map((s, i) => ({
    ...s,
    messages: counts[i] ?? 0,
    running: marks[i] === 1,
  }));
  return { total: page.total, offset, rows };
}

const when = (ms: number) => {
  const iso = new Date(ms).toISOString();
  return html`<time datetime="${iso}">${iso.replace('T', ' ').slice(0, 19)} UTC</time>`;
};

function row(r: SessionRow): Html {
  const { channel, chat } = splitConversation(r.sessionKey);
  const url = transcriptUrl(r.agent, r.sessionKey);
  return html`<tr class="session">
<td class="channel">${channel}</td><td class="agent">${r.agent}</td>
<td class="chat"><a href="${url}">${chat || r.sessionKey}</a></td>
<td class="last">${when(r.lastActivityMs)}</td><td class="count">${r.messages}</td>
<td>${turnControl(r.sessionKey, r.running, abortUrl(r.agent, r.sessionKey))}</td>
</tr>`;
}

export function renderSessions(v: SessionsView): Html {
  if (v.total === 0) return html`<h1>${m.SESSIONS_TITLE}</h1><p class="muted">${m.NO_SESSIONS}</p>`;
  const from = v.rows.length ? v.offset + 1 : 0;
  const to = v.offset + v.rows.length;
  const newer = v.offset > 0 ? Math.max(0, v.offset - SESSIONS_PAGE_SIZE) : null;
  const older = to < v.total ? to : null;
  return html`<h1>${m.SESSIONS_TITLE}</h1>
<p class="muted summary">${m.sessionsCount(from, to, v.total)}</p>
<table class="sessions"><thead><tr><th>${m.COL.channel}</th><th>${m.COL.agent}</th><th>${m.COL.chat}</th>
<th>${m.COL.last}</th><th>${m.COL.count}</th><th>${m.COL.state}</th></tr></thead>
<tbody>${v.rows.map(row)}</tbody></table>
<nav class="pager">${newer !== null ? html`<a rel="prev" href="/?offset=${newer}">${m.NEWER}</a>` : ''} ${
    older !== null ? html`<a rel="next" href="/?offset=${older}">${m.OLDER}</a>` : ''
  }</nav>`;
}
