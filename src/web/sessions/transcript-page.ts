// The transcript page (`/ui/sessions/<agent>/<session>`): one page of history, newest page first, with links to
// older and newer pages, the turn state and its Abort button.
import type { Redis } from 'ioredis';
import type { KeySpace } from '../../core/key-layout.ts';
import { runningTurnsKey } from '../../fleet/running-turns.ts';
import { type Html, html } from '../html.ts';
import { transcriptItems } from '../transcript/cards.ts';
import { renderItem } from '../transcript/render-cards.ts';
import { readTranscriptPage, type TranscriptPage } from '../transcript/transcript-reader.ts';
import { turnControl } from './abort-control.ts';
import * as m from './session-page-messages.ts';
import { abortUrl, splitConversation, transcriptUrl, treeStreamUrl } from './session-url.ts';

export interface TranscriptView {
  agent: string;
  sessionKey: string;
  page: TranscriptPage;
  running: boolean;
}

export async function readTranscript(
  redis: Redis,
  space: KeySpace,
  agent: string,
  sessionKey: string,
  before: number | undefined,
): Promise<TranscriptView> {
  const [page, mark] = await Promise.all([
    readTranscriptPage(redis, space, agent, sessionKey, before),
    redis.hexists(runningTurnsKey(space, sessionKey), sessionKey),
  ]);
  return { agent, sessionKey, page, running: mark === 1 };
}

/** `tree`: the session's live trees as first shown; the page's stream replaces them as they change. */
export function renderTranscript(v: TranscriptView, tree: Html): Html {
  const { page } = v;
  const url = transcriptUrl(v.agent, v.sessionKey);
  const items = transcriptItems(page.entries, page.following);
  const older =
    page.start > 0
      ? html`<a class="older" rel="next" href="${url}?before=${page.start}">${m.OLDER_MESSAGES}</a>`
      : '';
  const newerBefore = page.end + (page.end - page.start);
  const newer =
    page.end < page.total
      ? html`<a class="newer" rel="prev" href="${newerBefore >= page.total ? url : `${url}?before=${newerBefore}`}">${m.NEWER_MESSAGES}</a>`
      : '';
  const { channel, chat } = splitConversation(v.sessionKey);
  return html`<p><a href="/">${m.BACK_TO_SESSIONS}</a></p>
<h1>${v.agent} <span class="muted">${channel} ${chat}</span></h1>
<p class="turn-line">${turnControl(v.sessionKey, v.running, abortUrl(v.agent, v.sessionKey))}</p>
<section class="live-tree"><h2>${m.TREE_TITLE}</h2><div data-stream="${treeStreamUrl(v.agent, v.sessionKey)}">${tree}</div></section>
<p class="muted range">${m.transcriptRange(page.entries.length ? page.start + 1 : 0, page.end, page.total)}</p>
<nav class="pager">${older} ${newer}</nav>
<section class="transcript">${items.map(renderItem)}</section>
<nav class="pager">${older} ${newer}</nav>`;
}
