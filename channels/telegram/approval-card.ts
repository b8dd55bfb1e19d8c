// Telegram's approval card (approvals.md §12.2): HTML with a plain fallback, one row of three inline buttons whose
// callback_data carries only the approval id and the action (§11: data, never authority).
import {
  type ApprovalAction,
  type ApprovalCard,
  type ApprovalPress,
  type CardCopy,
  cardAgentValue,
  cardArgs,
  cardReasons,
  escapeAngles,
  isApprovalAction,
  isApprovalId,
  plainCardFields,
} from '../../src/channel-host/approval-card.ts';
import type { Button, OutboundMessage } from '../../src/channel-host/types.ts';

const PREFIX = 'approval:';

/** `callback_data`: `approval:<approval_id>:<action>` (at most 53 bytes, within Telegram's 64). */
export const telegramCallbackData = (approvalId: string, action: ApprovalAction) =>
  `${PREFIX}${approvalId}:${action}`;

export const isTelegramApprovalButton = (data: string): boolean => data.startsWith(PREFIX);

export function parseTelegramPress(data: string): ApprovalPress | null {
  if (typeof data !== 'string' || data.length > 64) return null;
  const parts = data.split(':');
  if (parts.length !== 3) return null;
  const [prefix, approvalId, action] = parts as [string, string, string];
  if (`${prefix}:` !== PREFIX || !isApprovalId(approvalId) || !isApprovalAction(action)) return null;
  return { approvalId, action };
}

const code = (s: string) => `<code>${escapeAngles(s)}</code>`;

/** Heading, Tool, [Agent], Args: plain, and as Telegram HTML. */
function body(card: ApprovalCard, copy: CardCopy): { text: string; markup: string } {
  const f = (key: string) => copy.format(key);
  const e = escapeAngles;
  const reasons = cardReasons(card, copy);
  const html = [
    `${e(f('approval-tool-label'))}: ${code(card.tool)}`,
    ...(card.agent ? [`${e(f('approval-agent-label'))}: ${cardAgentValue(card, copy, code, e)}`] : []),
    `${e(f('approval-args-label'))}: ${code(cardArgs(card, copy))}`,
    ...(reasons === null ? [] : [`${e(f('approval-reason-label'))}: ${e(reasons)}`]),
  ];
  return {
    text: `🔧 ${f('approval-heading')}\n\n${plainCardFields(card, copy).join('\n')}`,
    markup: `🔧 <b>${e(f('approval-heading'))}</b>\n\n${html.join('\n')}`,
  };
}

function buttons(card: ApprovalCard, copy: CardCopy): Button[] {
  const b = (prefix: string, key: string, action: ApprovalAction): Button => ({
    id: telegramCallbackData(card.approvalId, action),
    label: `${prefix} ${copy.format(key)}`,
  });
  return [
    b('✅', 'approval-button-approve', 'approve'),
    b('❌', 'approval-button-deny', 'deny'),
    b('✅✅', 'approval-button-always', 'always'),
  ];
}

export function renderTelegramCard(card: ApprovalCard, copy: CardCopy): OutboundMessage {
  const { text, markup } = body(card, copy);
  const tap = copy.format('approval-tap-instruction');
  return {
    text: `${text}\n\n${tap}`,
    markup: `${markup}\n\n${escapeAngles(tap)}`,
    buttons: [buttons(card, copy)],
  };
}

export function renderTelegramDecidedCard(
  card: ApprovalCard,
  outcome: string,
  copy: CardCopy,
): OutboundMessage {
  const { text, markup } = body(card, copy);
  return { text: `${text}\n\n${outcome}`, markup: `${markup}\n\n${escapeAngles(outcome)}`, buttons: [] };
}
