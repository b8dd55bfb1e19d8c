// Token replies (approvals.md §12.5): `<token> <keyword> [anything]` answers a pending approval of the chat.
import type { ApprovalAction } from '../channel-host/approval-card.ts';

export interface TokenReply {
  /** Lower-cased: tokens are matched case-insensitively against the chat's token index. */
  token: string;
  action: ApprovalAction;
}

/** The keywords, matched case-insensitively; fixed ASCII, never localised. */
const KEYWORDS: Readonly<Record<string, ApprovalAction>> = {
  yes: 'approve',
  y: 'approve',
  approve: 'approve',
  no: 'deny',
  n: 'deny',
  deny: 'deny',
  always: 'always',
};

/**
 * A user's message read as a token reply, or null when it is an ordinary message: the first word must be a
 * 6-character alphanumeric token and the second a keyword; extra words are ignored. Whether the token names a
 * record of this chat is the caller's question.
 */
export function parseTokenReply(text: string): TokenReply | null {
  if (typeof text !== 'string') return null;
  const words = text.trim().split(/\s+/);
  if (words.length < 2) return null;
  const [token, keyword] = words as [string, string];
  if (!/^[A-Za-z0-9]{6}$/.test(token)) return null;
  const key = keyword.toLowerCase();
  const action = Object.hasOwn(KEYWORDS, key) ? KEYWORDS[key] : undefined;
  return action ? { token: token.toLowerCase(), action } : null;
}
