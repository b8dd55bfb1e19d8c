// /ui/approvals: pending approvals as cards (with approve/deny for authorised web users) and the 7-day audit.
import { cardText } from '../../approval/approval-view.ts';
import type { ApprovalRecord } from '../../approval/record.ts';
import { type Html, html } from '../html.ts';
import {
  APPROVE_LABEL,
  approveConfirm,
  DENY_LABEL,
  denyConfirm,
  NO_AUDIT,
  NO_PENDING,
  READ_ONLY_NOTE,
} from './messages.ts';

const iso = (ms: number | null) =>
  ms === null ? '—' : new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

function chainOf(rec: ApprovalRecord): string {
  return rec.caller ? `${rec.caller} → ${rec.agent}` : rec.agent;
}

function pendingCard(rec: ApprovalRecord, mayDecide: boolean): Html {
  const base = `/ui/approvals/${rec.approval_id}/decide`;
  const buttons = mayDecide
    ? html`<div class="actions">
<button class="primary" data-post="${base}" data-body='{"answer":"approve"}' data-confirm="${approveConfirm(rec.tool, rec.agent)}">${APPROVE_LABEL}</button>
<button class="danger" data-post="${base}" data-body='{"answer":"deny"}' data-confirm="${denyConfirm(rec.tool, rec.agent)}">${DENY_LABEL}</button>
</div>`
    : html`<p class="muted">${READ_ONLY_NOTE}</p>`;
  return html`<article class="card approval" data-approval="${rec.approval_id}">
<pre class="card-text">${cardText(rec)}</pre>
<dl>
<dt>Delegation</dt><dd>${chainOf(rec)}</dd>
<dt>Tool</dt><dd><code>${rec.tool}</code></dd>
<dt>Arguments</dt><dd><pre>${rec.args_summary}</pre></dd>
<dt>Asked in</dt><dd>${rec.channel} · ${rec.destination.chat}${rec.destination.thread ? `:${rec.destination.thread}` : ''}</dd>
<dt>Expires</dt><dd><time datetime="${new Date(rec.expires_at).toISOString()}">${iso(rec.expires_at)}</time></dd>
</dl>
${buttons}
</article>`;
}

function auditRow(rec: ApprovalRecord): Html {
  const by = rec.decided_by ? `${rec.decided_by.user} (${rec.decided_by.channel})` : '—';
  return html`<tr data-approval="${rec.approval_id}">
<td>${iso(rec.decided_at)}</td><td><span class="status status-${rec.status}">${rec.status}</span></td>
<td>${rec.source ?? '—'}</td><td>${chainOf(rec)}</td><td><code>${rec.tool}</code></td>
<td class="text">${rec.args_summary}</td><td>${by}</td></tr>`;
}

/** The live fragment: pending cards, then the audit trail. */
export function approvalsFragment(
  pending: readonly ApprovalRecord[],
  audit: readonly ApprovalRecord[],
  mayDecide: (rec: ApprovalRecord) => boolean,
): Html {
  return html`<section><h2>Pending</h2>
${pending.length ? pending.map((r) => pendingCard(r, mayDecide(r))) : html`<p class="muted">${NO_PENDING}</p>`}
</section>
<section><h2>Audit trail (7 days)</h2>
${
  audit.length
    ? html`<table class="audit"><thead><tr><th>Decided</th><th>Status</th><th>Source</th><th>Agent</th><th>Tool</th><th>Arguments</th><th>By</th></tr></thead>
<tbody>${audit.map(auditRow)}</tbody></table>`
    : html`<p class="muted">${NO_AUDIT}</p>`
}
</section>`;
}
