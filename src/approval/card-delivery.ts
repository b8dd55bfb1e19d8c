// How approval code asks for a card: the gateway holding the channel posts it, or edits it to its outcome (every
// edit, a decision's included, goes this one way: see README "Architecture"). src/queue implements it.
import type { Recipient } from '../channel-host/types.ts';

export interface ApprovalDelivery {
  post(channel: string, approvalId: string, to: Recipient): Promise<void>;
  edit(channel: string, approvalId: string, to: Recipient): Promise<void>;
}

/** Where a record's card went: its destination chat (and thread) on its channel. */
export function cardRecipient(rec: {
  channel: string;
  destination: { chat: string; thread: string | null };
}): Recipient {
  const { chat, thread } = rec.destination;
  return { channel: rec.channel, chat, ...(thread ? { thread } : {}) };
}
