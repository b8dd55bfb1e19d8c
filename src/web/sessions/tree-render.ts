// The session page's live execution tree (live.md §6): each turn a nested list of its runs, each with its kind,
// target, mode, state, ids, times, iterations, tool calls, pending approvals, cost and its transcript link.
// Every field is a record's or an event's text: all escaped by the html tag.
import type { RunNodeView } from '../../live/run-tree-view.ts';
import type { SessionTreeView, TurnTreeView } from '../../live/session-tree.ts';
import { type Html, html } from '../html.ts';
import * as m from './session-page-messages.ts';

const time = (iso: string | null) =>
  iso ? html`<time datetime="${iso}">${iso.replace('T', ' ').slice(0, 19)}</time>` : '—';

const state = (s: string) => html`<span class="status status-${s}">${s}</span>`;

const cost = (usd: number | null) => (usd === null ? m.TREE.costUnknown : `$${usd.toFixed(6)}`);

const duration = (ms: number | null) => (ms === null ? '' : ` · ${ms} ms`);

function tools(n: RunNodeView): Html | string {
  if (n.tools.length === 0) return '';
  return html`<ul class="tools" aria-label="${m.TREE.tools}">${n.tools.map(
    (t) =>
      html`<li class="tool" data-call="${t.tool_call_id}" data-state="${t.state}"><code>${t.tool}</code> ${state(t.state)}${duration(t.duration_ms)} <span class="muted">${t.args_summary}</span></li>`,
  )}</ul>`;
}

function approvals(n: RunNodeView): Html | string {
  if (n.pending_approvals.length === 0) return '';
  return html`<ul class="approvals">${n.pending_approvals.map(
    (a) =>
      html`<li class="approval-pending" data-approval="${a.approval_id}">⏳ ${m.TREE.approvalPending}: ${m.approvalWhere(a.tool, a.channel, a.thread ? `${a.chat}:${a.thread}` : a.chat, a.expires_at.replace('T', ' ').slice(0, 19))}</li>`,
  )}</ul>`;
}

function backgroundTasks(n: RunNodeView): Html | string {
  if (n.background_tasks.length === 0) return '';
  return html`<ul class="background" aria-label="${m.TREE.backgroundTasks}">${n.background_tasks.map(
    (b) =>
      html`<li data-task="${b.task_id}">${m.KIND.background} <code>${b.task_id}</code> → ${b.target} ${state(b.state)}</li>`,
  )}</ul>`;
}

function node(n: RunNodeView): Html {
  return html`<li class="run" data-run="${n.run_id}" data-kind="${n.kind}" data-state="${n.state}">
<div class="run-head"><span class="kind">${m.KIND[n.kind]}</span> <strong class="agent">${n.agent}</strong>${
    n.mode ? html` <span class="mode">${n.mode}</span>` : ''
  } ${state(n.state)} <a class="transcript-link" href="${n.transcript_url}">${m.TREE.transcript}</a></div>
<dl class="run-facts">
<dt>${m.TREE.run}</dt><dd><code>${n.run_id}</code></dd>
${n.task_id ? html`<dt>${m.TREE.task}</dt><dd><code>${n.task_id}</code></dd>` : ''}
${n.parent_tool_call_id ? html`<dt>${m.TREE.parentCall}</dt><dd><code>${n.parent_tool_call_id}</code></dd>` : ''}
<dt>${m.TREE.started}</dt><dd>${time(n.started_at)}</dd>
<dt>${m.TREE.finished}</dt><dd>${time(n.finished_at)}</dd>
<dt>${m.TREE.iterations}</dt><dd class="iterations">${n.iterations}</dd>
<dt>${m.TREE.cost}</dt><dd class="cost">${cost(n.cost_usd)}</dd>
</dl>
${approvals(n)}${tools(n)}${backgroundTasks(n)}
${n.children.length ? html`<ul class="run-tree">${n.children.map(node)}</ul>` : ''}
</li>`;
}

function turn(t: TurnTreeView, running: boolean): Html {
  return html`<section class="turn-tree" data-root="${t.root_run_id}"${running ? html` data-running="1"` : ''}>
<h3>${running ? m.RUNNING_TURN : m.turnStarted(t.started_at?.replace('T', ' ').slice(0, 19) ?? null)}</h3>
<ul class="run-tree">${t.runs.map(node)}</ul>
</section>`;
}

/** The running turn first, then the recent ones, newest first. */
export function renderSessionTree(v: SessionTreeView): Html {
  if (!v.running && v.recent.length === 0) return html`<p class="muted">${m.NO_TURNS}</p>`;
  return html`${v.running ? turn(v.running, true) : ''}${v.recent.map((t) => turn(t, false))}`;
}
