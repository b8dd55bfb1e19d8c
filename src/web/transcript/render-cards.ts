// Transcript items as HTML: messages through the Markdown renderer, tool calls as expandable cards (delegate.md
// §18). Every value is escaped by `html`; the stored original input rides along in a hidden textarea for Copy.
import { type Html, html, trustedHtml } from '../html.ts';
import { renderChatMarkdown } from '../markdown.ts';
import * as m from '../sessions/session-page-messages.ts';
import type { DelegationCard, GenericCard, ShownText, ToolCard, TranscriptItem } from './cards.ts';
import type { EnvelopeDetails } from './envelope.ts';
import type { Field } from './limits.ts';

const cut = (f: Field) => (f.cut ? html`<p class="cut muted">${m.cutNote(f.cut)}</p>` : '');
const pre = (f: Field) => html`<pre>${f.text}</pre>${cut(f)}`;
const markdown = (f: Field) =>
  html`<div class="md">${trustedHtml(renderChatMarkdown(f.text))}</div>${cut(f)}`;

function copyable(original: string): Html {
  return html`<button type="button" class="copy" data-copy data-label-copied="${m.COPIED}" data-label-failed="${m.COPY_FAILED}">${m.COPY}</button><textarea class="original" hidden readonly>${original}</textarea>`;
}

function details(d: EnvelopeDetails): Html {
  return html`<details class="envelope-details"><summary>${m.DETAILS}</summary><dl>
<dt>${m.DETAIL.served}</dt><dd class="served">${d.served}</dd>
${d.requested ? html`<dt>${m.DETAIL.requested}</dt><dd class="requested">${d.requested}</dd>` : ''}
<dt>${m.DETAIL.mode}</dt><dd>${d.agentic ? m.DETAIL.agentic : m.DETAIL.oneShot}</dd>
${d.warning ? html`<dt>${m.DETAIL.note}</dt><dd class="warning">${d.warning}</dd>` : ''}
</dl></details>`;
}

/** The response text first, its provider/model under a collapsed Details; anything else as it is. */
function shown(v: ShownText): Html {
  return v.kind === 'envelope'
    ? html`<div class="response-text">${markdown(v.response)}</div>${details(v.details)}`
    : html`<div class="response-raw">${pre(v.text)}</div>`;
}

const missing = () => html`<p class="missing">${m.RESULT_NOT_RECORDED}</p>`;

function response(c: DelegationCard): Html {
  const r = c.response;
  if (r.kind === 'missing') return missing();
  if (r.kind !== 'parallel') return shown(r);
  return html`${r.blocks.map(
    (b) => html`<div class="target-block"><h5 class="target">${b.agent}</h5>${shown(b.view)}</div>`,
  )}`;
}

function delegationCard(c: DelegationCard): Html {
  return html`<details class="card delegation" open data-tool="${c.tool}" data-call-id="${c.callId}">
<summary><span class="tool">${c.tool}</span>${
    c.targets.length ? html` <span class="targets">${c.targets.join(', ')}</span>` : ''
  }</summary>
<section class="task"><h4>${m.TASK}</h4>${pre(c.task)}</section>
${c.input ? html`<section class="input"><h4>${m.INPUT}</h4>${pre(c.input)}</section>` : ''}
<section class="response"><h4>${m.RESPONSE}</h4>${response(c)}</section>
<div class="card-actions">${copyable(c.original)}</div>
</details>`;
}

function genericCard(c: GenericCard): Html {
  const reason = m.GENERIC_REASON[c.reason];
  return html`<details class="card generic" data-tool="${c.toolName}" data-call-id="${c.callId}" data-reason="${c.reason}">
<summary><span class="tool">${c.toolName}</span>${reason ? html` <span class="reason muted">${reason}</span>` : ''}</summary>
<section class="input"><h4>${m.INPUT}</h4>${pre(c.input)}</section>
<section class="result"><h4>${m.RESULT}</h4>${c.result.kind === 'missing' ? missing() : pre(c.result.text)}</section>
<div class="card-actions">${copyable(c.original)}</div>
</details>`;
}

export const renderCard = (c: ToolCard): Html =>
  c.kind === 'delegation' ? delegationCard(c) : genericCard(c);

export function renderItem(item: TranscriptItem): Html {
  switch (item.kind) {
    case 'user':
    case 'assistant':
      return html`<article class="msg ${item.kind}" data-index="${item.index}"><h4 class="role">${m.ROLE[item.kind]}</h4>${markdown(item.text)}</article>`;
    case 'card':
      return html`<div class="call" data-index="${item.index}">${renderCard(item.card)}</div>`;
    case 'result':
      return html`<details class="card orphan-result" data-index="${item.index}" data-call-id="${item.callId}"><summary>${m.resultOfEarlierCall(item.toolName)}</summary>${pre(item.text)}</details>`;
    case 'unreadable':
      return html`<p class="msg unreadable muted" data-index="${item.index}">${m.UNREADABLE_ENTRY}</p>`;
  }
}
