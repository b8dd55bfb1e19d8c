// /ui/approvals: pending approvals as read-only cards and the 7-day audit (deciding happens in the chats).
import { cardText } from '../../approval/approval-view.ts';
import { operatorLabel } from '../../approval/operator-label.ts';
import type { ApprovalRecord } from '../../approval/record.ts';
import { type Html, html } from '../html.ts';
import { NO_AUDIT, NO_PENDING, READ_ONLY_NOTE } from './ops-page-messages.ts';

const iso = (ms: number | null) =>
  ms === null ? '—' : new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

function chainOf(rec: ApprovalRecord): string {
  return rec.caller ? `${rec.caller} → ${rec.agent}` : rec.agent;
}

function pendingCard(rec: ApprovalRecord): Html {
  return html`<article class="card approval" data-approval="${rec.approval_id}">
<pre class="card-text">${cardText(rec)}</pre>
<dl>
<dt>Delegation</dt><dd>${chainOf(rec)}</dd>
<dt>Tool</dt><dd><code>${rec.tool}</code></dd>
<dt>Arguments</dt><dd><pre>${rec.args_summary}</pre></dd>
<dt>Asked in</dt><dd>${rec.channel} · ${rec.destination.chat}${rec.destination.thread ? `:${rec.destination.thread}` : ''}</dd>
<dt>Expires</dt><dd><time datetime="${new Date(rec.expires_at).toISOString()}">${iso(rec.expires_at)}</time></dd>
</dl>
<p class="muted">${READ_ONLY_NOTE}</p>
</article>`;
}

function auditRow(rec: ApprovalRecord): Html {
  const by = rec.decided_by ? `${operatorLabel(rec.decided_by)} · ${rec.decided_by.channel}` : '—';
  return html`<tr data-approval="${rec.approval_id}">
<td>${iso(rec.decided_at)}</td><td><span class="status status-${rec.status}">${rec.status}</span></td>
<td>${rec.source ?? '—'}</td><td>${chainOf(rec)}</td><td><code>${rec.tool}</code></td>
<td class="text">${rec.args_summary}</td><td>${by}</td></tr>`;
}

/** The live fragment: pending cards, then the audit trail. */
export function approvalsFragment(
  pending: readonly ApprovalRecord[],
  audit: readonly ApprovalRecord[],
): Html {
  return html`<section><h2>Pending</h2>
${pending.length ? pending.map(pendingCard) : html`<p class="muted">${NO_PENDING}</p>`}
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
