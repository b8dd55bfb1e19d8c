// How the ops API and `baton approvals list` show a record: the §10 fields an operator needs, times as ISO
// strings, the text prompt for pending ones. Never raw arguments (records hold only the §4 summary) and never the
// reply token (a pending one is an answer code; the card is shown without it).

import { renderApprovalCard } from './card.ts';
import type { ApprovalDestination, ApprovalRecord, ApprovalSource, ApprovalStatus } from './record.ts';

export interface ApprovalView {
  approval_id: string;
  status: ApprovalStatus;
  tool: string;
  args_summary: string;
  agent: string;
  caller: string | null;
  run_id: string;
  root_run_id: string;
  channel: string;
  destination: ApprovalDestination;
  created_at: string;
  expires_at: string;
  /** `name`: the operator's username when the platform gave one (display only; `user` is the id). */
  decided_by: { channel: string; user: string; name?: string } | null;
  decided_at: string | null;
  source: ApprovalSource | null;
  /** Pending only: the prompt as text mode shows it (heading, Tool, Agent, Args), without the answer line. */
  card?: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The prompt's text with the token left out: heading, Tool, Agent and Args lines. */
export function cardText(rec: ApprovalRecord): string {
  const text = renderApprovalCard('text', {
    approvalId: rec.approval_id,
    replyToken: rec.reply_token,
    tool: rec.tool,
    argsSummary: rec.args_summary,
    reasons: rec.reasons,
    agent: { name: rec.agent, ...(rec.caller ? { caller: rec.caller } : {}) },
    group: false,
  }).text;
  // Without the answer line (the last paragraph; an args summary may itself hold a blank line) and the token.
  const cut = text.lastIndexOf('\n\n');
  return (cut === -1 ? text : text.slice(0, cut)).replace(` [${rec.reply_token}]`, '');
}

export function approvalView(rec: ApprovalRecord): ApprovalView {
  return {
    approval_id: rec.approval_id,
    status: rec.status,
    tool: rec.tool,
    args_summary: rec.args_summary,
    agent: rec.agent,
    caller: rec.caller,
    run_id: rec.run_id,
    root_run_id: rec.root_run_id,
    channel: rec.channel,
    destination: rec.destination,
    created_at: iso(rec.created_at),
    expires_at: iso(rec.expires_at),
    decided_by: rec.decided_by,
    decided_at: rec.decided_at === null ? null : iso(rec.decided_at),
    source: rec.source,
    ...(rec.status === 'pending' ? { card: cardText(rec) } : {}),
  };
}
