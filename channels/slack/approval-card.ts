// Slack's approval card (approvals.md §12.4): mrkdwn section with a plain notification text, and three Block Kit
// buttons: action_id `approval_<token>_<action>`, value the approval id (§11: data, never authority).
import {
  type ApprovalAction,
  type ApprovalCard,
  type ApprovalPress,
  type CardCopy,
  cardAgentValue,
  cardArgs,
  cardReasons,
  escapeAngles,
  isApprovalId,
  plainCardFields,
} from '../../src/channel-host/approval-card.ts';
import type { Button, OutboundMessage } from '../../src/channel-host/types.ts';

const PREFIX = 'approval_';

/** `action_id`: `approval_<token>_<action>` (the button's `value` is the approval id). */
export const slackActionId = (token: string, action: ApprovalAction) => `${PREFIX}${token}_${action}`;

export const isSlackApprovalButton = (actionId: string): boolean => actionId.startsWith(PREFIX);

/** The record is found by `value`; the token in the action_id must be its reply token (checked by the caller). */
export function parseSlackPress(actionId: string, value?: string): ApprovalPress | null {
  if (typeof actionId !== 'string' || actionId.length > 64) return null;
  const m = /^approval_([a-z0-9]{6})_(approve|always|deny)$/.exec(actionId);
  if (!m || typeof value !== 'string' || !isApprovalId(value)) return null;
  return { approvalId: value, action: m[2] as ApprovalAction, token: m[1]! };
}

/** `APPROVAL REQUIRED [token]`, Tool, [Agent], Args: plain, and as mrkdwn. */
function body(card: ApprovalCard, copy: CardCopy): { text: string; markup: string } {
  const f = (key: string) => copy.format(key);
  const e = escapeAngles;
  const shout = f('approval-heading-shout');
  const reasons = cardReasons(card, copy);
  const bold = (label: string) => `*${e(f(label))}:*`;
  const mrkdwn = [
    `*${e(shout)}* [\`${card.replyToken}\`]`,
    `${bold('approval-tool-label')} \`${e(card.tool)}\``,
    ...(card.agent ? [`${bold('approval-agent-label')} ${cardAgentValue(card, copy, e, e)}`] : []),
    `${bold('approval-args-label')} ${e(cardArgs(card, copy))}`,
    ...(reasons === null ? [] : [`${bold('approval-reason-label')} ${e(reasons)}`]),
  ];
  const heading = `${shout} [${card.replyToken}]`;
  return { text: [heading, ...plainCardFields(card, copy)].join('\n'), markup: mrkdwn.join('\n') };
}

function buttons(card: ApprovalCard, copy: CardCopy): Button[] {
  const b = (key: string, action: ApprovalAction, style?: Button['style']): Button => ({
    id: slackActionId(card.replyToken, action),
    label: copy.format(key),
    value: card.approvalId,
    ...(style ? { style } : {}),
  });
  return [
    b('approval-button-approve', 'approve', 'primary'),
    b('approval-button-deny', 'deny', 'danger'),
    b('approval-button-always', 'always'),
  ];
}

export function renderSlackCard(card: ApprovalCard, copy: CardCopy): OutboundMessage {
  const { text, markup } = body(card, copy);
  return { text, markup, buttons: [buttons(card, copy)] };
}

export function renderSlackDecidedCard(card: ApprovalCard, outcome: string, copy: CardCopy): OutboundMessage {
  const { text, markup } = body(card, copy);
  return { text: `${text}\n\n${outcome}`, markup: `${markup}\n\n${escapeAngles(outcome)}`, buttons: [] };
}
