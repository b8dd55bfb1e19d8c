// Approval button data per platform (approvals.md §12.2–§12.4): fixed ASCII carrying only the approval id (or
// reply token) and the action. Data, never authority: whoever handles a press loads the record and checks it.

export type ApprovalAction = 'approve' | 'always' | 'deny';
export type ButtonPlatform = 'telegram' | 'discord' | 'slack';

/** A press read back from its button data. */
export interface ApprovalPress {
  approvalId: string;
  action: ApprovalAction;
  /** Slack only: the token in the action_id; the record's `reply_token` must equal it (§12.4). */
  token?: string;
}

/** Lower-case canonical UUID v4, as crypto.randomUUID() makes them. */
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** A reply token as baton makes them (§10: 6 characters from a-z0-9). */
const TOKEN = /^[a-z0-9]{6}$/;

const ACTIONS: readonly ApprovalAction[] = ['approve', 'always', 'deny'];
const isAction = (s: string): s is ApprovalAction => (ACTIONS as readonly string[]).includes(s);

/** Discord's `n` (§12.3): the mapping lives on the server; Allow this session and Always allow both mean Always. */
export const DISCORD_BUTTON_ACTIONS: Readonly<Record<string, ApprovalAction>> = {
  '0': 'deny',
  '1': 'approve',
  '2': 'always',
  '3': 'always',
};

export const isApprovalId = (s: string): boolean => UUID_V4.test(s);
export const isReplyToken = (s: string): boolean => TOKEN.test(s);

/** Telegram `callback_data`: `approval:<approval_id>:<action>` (at most 53 bytes). */
export const telegramCallbackData = (approvalId: string, action: ApprovalAction) =>
  `approval:${approvalId}:${action}`;

/** Discord `custom_id`: `apv:<approval_id>:<n>`, n from DISCORD_BUTTON_ACTIONS. */
export const discordCustomId = (approvalId: string, n: '0' | '1' | '2' | '3') => `apv:${approvalId}:${n}`;

/** Slack `action_id`: `approval_<token>_<action>` (the button's `value` is the approval id). */
export const slackActionId = (token: string, action: ApprovalAction) => `approval_${token}_${action}`;

/**
 * Whether button data is in an approval namespace at all (`approval:`, `apv:`, `approval_`): data that is not
 * is left to other handlers; data that is but does not parse is an unknown action (Telegram acks it so).
 */
export function isApprovalButton(platform: ButtonPlatform, actionId: string): boolean {
  const prefix = { telegram: 'approval:', discord: 'apv:', slack: 'approval_' }[platform];
  return actionId.startsWith(prefix);
}

/**
 * Reads a press back from its button data: `actionId` (callback_data, custom_id or action_id) and, on Slack, the
 * button's `value`. Anything malformed or tampered with gives null; it never throws.
 */
export function parseApprovalPress(
  platform: ButtonPlatform,
  actionId: string,
  value?: string,
): ApprovalPress | null {
  if (typeof actionId !== 'string' || actionId.length > 64) return null;
  if (platform === 'slack') {
    const m = /^approval_([a-z0-9]{6})_(approve|always|deny)$/.exec(actionId);
    if (!m || typeof value !== 'string' || !UUID_V4.test(value)) return null;
    return { approvalId: value, action: m[2] as ApprovalAction, token: m[1]! };
  }
  const parts = actionId.split(':');
  if (parts.length !== 3) return null;
  const [prefix, approvalId, tail] = parts as [string, string, string];
  if (!UUID_V4.test(approvalId)) return null;
  if (platform === 'telegram') {
    return prefix === 'approval' && isAction(tail) ? { approvalId, action: tail } : null;
  }
  const action = Object.hasOwn(DISCORD_BUTTON_ACTIONS, tail) ? DISCORD_BUTTON_ACTIONS[tail] : undefined;
  return prefix === 'apv' && action ? { approvalId, action } : null;
}
