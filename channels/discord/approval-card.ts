// Discord's approval card (approvals.md §12.3): plain content and one row of four buttons whose custom_id is
// `apv:<approval_id>:<n>`; what `n` means lives here, on the server (§11: data, never authority).
import {
  type ApprovalAction,
  type ApprovalCard,
  type ApprovalPress,
  type CardCopy,
  isApprovalId,
  plainCardFields,
} from '../../src/channel-host/approval-card.ts';
import type { Button, OutboundMessage } from '../../src/channel-host/types.ts';

const PREFIX = 'apv:';

/** `n` → decision: Allow this session and Always allow both mean Always. */
export const DISCORD_BUTTON_ACTIONS: Readonly<Record<string, ApprovalAction>> = {
  '0': 'deny',
  '1': 'approve',
  '2': 'always',
  '3': 'always',
};

/** `custom_id`: `apv:<approval_id>:<n>`, n from DISCORD_BUTTON_ACTIONS. */
export const discordCustomId = (approvalId: string, n: '0' | '1' | '2' | '3') =>
  `${PREFIX}${approvalId}:${n}`;

export const isDiscordApprovalButton = (id: string): boolean => id.startsWith(PREFIX);

export function parseDiscordPress(id: string): ApprovalPress | null {
  if (typeof id !== 'string' || id.length > 64) return null;
  const parts = id.split(':');
  if (parts.length !== 3) return null;
  const [prefix, approvalId, n] = parts as [string, string, string];
  if (`${prefix}:` !== PREFIX || !isApprovalId(approvalId)) return null;
  const action = Object.hasOwn(DISCORD_BUTTON_ACTIONS, n) ? DISCORD_BUTTON_ACTIONS[n] : undefined;
  return action ? { approvalId, action } : null;
}

const body = (card: ApprovalCard, copy: CardCopy) =>
  [copy.format('approval-heading-shout'), ...plainCardFields(card, copy)].join('\n');

function buttons(card: ApprovalCard, copy: CardCopy): Button[] {
  const id = card.approvalId;
  return [
    { id: discordCustomId(id, '1'), label: copy.format('approval-discord-allow-once'), style: 'success' },
    { id: discordCustomId(id, '2'), label: copy.format('approval-discord-allow-session'), style: 'primary' },
    // No style: the adapter's default, Secondary.
    { id: discordCustomId(id, '3'), label: copy.format('approval-discord-always-allow') },
    { id: discordCustomId(id, '0'), label: copy.format('approval-button-deny'), style: 'danger' },
  ];
}

export const renderDiscordCard = (card: ApprovalCard, copy: CardCopy): OutboundMessage => ({
  text: body(card, copy),
  buttons: [buttons(card, copy)],
});

export const renderDiscordDecidedCard = (
  card: ApprovalCard,
  outcome: string,
  copy: CardCopy,
): OutboundMessage => ({
  text: `${body(card, copy)}\n\n${outcome}`,
  buttons: [],
});
