// /ui/tasks: background delegate tasks with their live progress, lifecycle, result or error, and Cancel.
import type { ListedTask } from '../../delegation/task-list.ts';
import { type Html, html } from '../html.ts';
import { CANCEL_LABEL, cancelConfirm, cutNote, NO_TASKS } from './ops-page-messages.ts';

/** Longer results and errors are cut here; the whole text is in the record (check_result). */
export const SHOWN_CHARS = 600;
export const TASKS_SHOWN = 50;

export interface TaskRow extends ListedTask {
  output: string | null;
}

export function cut(text: string, max = SHOWN_CHARS): Html {
  if (text.length <= max) return html`${text}`;
  return html`${text.slice(0, max)}<span class="muted">${cutNote(text.length)}</span>`;
}

const time = (iso: string | null) =>
  iso ? html`<time datetime="${iso}">${iso.replace('T', ' ').slice(0, 19)}</time>` : '—';

function progressOf(p: Record<string, unknown> | null): Html {
  if (!p) return html`<span class="muted">not started</span>`;
  const last = p.last_tool as { name?: unknown; finished_at?: unknown; success?: unknown } | null | undefined;
  const lastText = last?.name
    ? `${String(last.name)}${last.finished_at === null ? ' (running)' : last.success === false ? ' (failed)' : ''}`
    : '—';
  const budget = typeof p.timeout_budget_secs === 'number' ? ` / ${p.timeout_budget_secs}s` : '';
  const receipts = Array.isArray(p.receipt_tail) ? p.receipt_tail.map(String) : [];
  return html`<dl class="progress">
<dt>iterations</dt><dd data-field="iterations">${String(p.iterations ?? 0)}</dd>
<dt>tools done</dt><dd>${String(p.tools_completed ?? 0)}</dd>
<dt>last tool</dt><dd>${lastText}</dd>
<dt>elapsed</dt><dd>${String(p.elapsed_secs ?? 0)}s${budget}</dd>
<dt>last activity</dt><dd>${time(typeof p.last_activity_at === 'string' ? p.last_activity_at : null)}</dd>
${receipts.length ? html`<dt>receipts</dt><dd>${receipts.join(', ')}</dd>` : ''}
</dl>`;
}

function row(t: TaskRow): Html {
  const result = t.error
    ? html`<div class="bad">${cut(t.error)}</div>`
    : t.output !== null
      ? html`<div class="result">${cut(t.output)}</div>`
      : html`<span class="muted">—</span>`;
  const cancel =
    t.status === 'running'
      ? html`<button class="danger" data-post="/ui/tasks/${encodeURIComponent(t.task_id)}/cancel" data-confirm="${cancelConfirm(t.task_id, t.agent)}">${CANCEL_LABEL}</button>`
      : '';
  return html`<tr data-task="${t.task_id}">
<td><code>${t.task_id}</code><br><span class="muted">parent call</span> <code>${t.parent_tool_call_id ?? '—'}</code></td>
<td>${[...t.chain, t.agent].join(' → ')}<br><span class="muted">${t.mode ?? ''} · depth ${String(t.depth ?? '?')}</span></td>
<td><span class="status status-${t.status}" data-status="${t.status}">${t.status}</span></td>
<td>started ${time(t.started_at)}<br>finished ${time(t.finished_at)}<br>heartbeat ${time(t.heartbeat_at)}</td>
<td>${progressOf(t.progress)}</td>
<td class="text">${result}</td>
<td>${cancel}</td>
</tr>`;
}

/** The live fragment: the table (or the empty note). */
export function tasksFragment(tasks: readonly TaskRow[]): Html {
  if (tasks.length === 0) return html`<p class="muted">${NO_TASKS}</p>`;
  return html`<table class="tasks">
<thead><tr><th>Task</th><th>Chain → agent</th><th>Status</th><th>Lifecycle</th><th>Progress</th><th>Result / error</th><th></th></tr></thead>
<tbody>${tasks.map(row)}</tbody>
</table>`;
}
