// Approval prompts as channel messages (approvals.md §12), and the same prompt once decided (§10.8): the card a
// record shows, the §12.5 text prompt, and the outcome line. Each platform's layout and button data are its
// dialect's (channels/<kind>/dialect.ts).
import type { ApprovalCard } from '../channel-host/approval-card.ts';
import { escapeAngles, plainCardFields } from '../channel-host/approval-card.ts';
import type { ChannelDialect } from '../channel-host/dialect.ts';
import type { OutboundMessage } from '../channel-host/types.ts';
import { type Catalog, defaultCatalog } from '../i18n/catalog.ts';
import { operatorLabel } from './operator-label.ts';
import type { ApprovalRecord } from './record.ts';

export type { ApprovalCard } from '../channel-host/approval-card.ts';

/**
 * `text`: the §12.5 text prompt, the fallback when a platform refuses buttons; it fits any adapter (its markup is
 * the text with `&`, `<` and `>` escaped, valid as HTML and as mrkdwn).
 */
export type CardPlatform = ChannelDialect | 'text';

export type CardOutcome =
  | { kind: 'approved' | 'always' | 'denied'; by: string }
  | { kind: 'expired' }
  | { kind: 'cancelled' };

export function cardOf(rec: ApprovalRecord): ApprovalCard {
  return {
    approvalId: rec.approval_id,
    replyToken: rec.reply_token,
    tool: rec.tool,
    argsSummary: rec.args_summary,
    reasons: rec.reasons,
    ...(rec.route_prompt
      ? { agent: { name: rec.agent, ...(rec.caller ? { caller: rec.caller } : {}) } }
      : {}),
    group: rec.group,
  };
}

/** What the card shows once the record left `pending` (the operator as "name (id)"); null for an undeliverable one. */
export function outcomeOf(rec: ApprovalRecord): CardOutcome | null {
  const by = rec.decided_by ? operatorLabel(rec.decided_by) : '?';
  switch (rec.status) {
    case 'approved':
      return { kind: 'approved', by };
    case 'always':
      return { kind: 'always', by };
    case 'denied':
      return { kind: 'denied', by };
    case 'expired':
      return { kind: 'expired' };
    case 'cancelled':
      return { kind: 'cancelled' };
    default:
      return null;
  }
}

/** The prompt with its buttons (text mode: none; the reply line says how to answer). */
export function renderApprovalCard(
  platform: CardPlatform,
  card: ApprovalCard,
  catalog: Catalog = defaultCatalog(),
): OutboundMessage {
  if (platform !== 'text') return platform.renderApprovalCard(card, catalog);
  const body = textBody(card, catalog);
  const instructions = textModeInstructions(card, catalog);
  return {
    text: `${body}\n\n${instructions}`,
    markup: `${escapeAngles(body)}\n\n${escapeAngles(instructions)}`,
  };
}

/** The prompt once it is no longer pending: the outcome in place of the instructions, and no buttons. */
export function renderDecidedCard(
  platform: CardPlatform,
  card: ApprovalCard,
  outcome: CardOutcome,
  catalog: Catalog = defaultCatalog(),
): OutboundMessage {
  const line = outcomeLine(outcome, catalog);
  if (platform !== 'text') return platform.renderDecidedCard(card, line, catalog);
  const body = textBody(card, catalog);
  return {
    text: `${body}\n\n${line}`,
    markup: `${escapeAngles(body)}\n\n${escapeAngles(line)}`,
    buttons: [],
  };
}

/** `✅ Approved by X`, `✅✅ Always approved by X`, `❌ Denied by X`, `⌛ Expired: …`, `🚫 Cancelled: …`. */
export function outcomeLine(outcome: CardOutcome, catalog: Catalog = defaultCatalog()): string {
  switch (outcome.kind) {
    case 'approved':
      return `✅ ${catalog.format('approval-outcome-approved', { user: outcome.by })}`;
    case 'always':
      return `✅✅ ${catalog.format('approval-outcome-always', { user: outcome.by })}`;
    case 'denied':
      return `❌ ${catalog.format('approval-outcome-denied', { user: outcome.by })}`;
    case 'expired':
      return `⌛ ${catalog.format('approval-outcome-expired')}`;
    default:
      return `🚫 ${catalog.format('approval-outcome-cancelled')}`;
  }
}

/** `APPROVAL REQUIRED [token]`, Tool, [Agent], Args. */
const textBody = (card: ApprovalCard, catalog: Catalog) =>
  [
    `${catalog.format('approval-heading-shout')} [${card.replyToken}]`,
    ...plainCardFields(card, catalog),
  ].join('\n');

/** The §12.5 reply line, plus the group visibility warning in a group chat. */
function textModeInstructions(card: ApprovalCard, catalog: Catalog): string {
  const t = card.replyToken;
  const reply = catalog.format('approval-reply-yes-no', {
    yes_command: `${t} yes`,
    no_command: `${t} no`,
    always_command: `${t} always`,
  });
  return card.group ? `${reply}\n\n${catalog.format('approval-group-warning')}` : reply;
}
