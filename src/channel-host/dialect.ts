// One platform's knowledge without its library (issue 23): markup, approval card layout and button data,
// recipients, the §11 same-destination rule, and static limits. Each channels/<kind>/dialect.ts implements it;
// the table of platforms is src/roles/platforms.ts, and code below roles/ gets a DialectOf injected.
import type { ApprovalCard, ApprovalPress, CardCopy } from './approval-card.ts';
import type { OutboundMessage } from './types.ts';

/** Static limits, from the platform's documentation. */
export interface DialectCapabilities {
  /** Longest text of one message the platform accepts (an adapter may chunk smaller). */
  readonly maxMessageLength: number;
  /** Shortest pause between two edits of one message that the platform's rate limits allow. */
  readonly minEditIntervalMs: number;
  /** Sent messages can be edited in place (decided cards, preview messages of a live run). */
  readonly editsMessages: boolean;
  /** Largest file a bot may upload, in bytes. */
  readonly maxUploadBytes: number;
}

/** A chat and, where the platform has them, a thread in it. */
export interface ChatPlace {
  chat: string;
  thread?: string | undefined;
}

export interface ChannelDialect {
  /** The channel type it speaks for: the `<type>` of a channel key `<type>.<alias>`. */
  readonly kind: string;
  readonly capabilities: DialectCapabilities;
  /** One bot token allows one consumer at a time: the adapter runs only under the channel's lease. */
  readonly singleConsumer: boolean;
  /** A card refused with buttons goes once more as the §12.5 text prompt (false: the adapter already retried). */
  readonly textModeFallback: boolean;
  /** Markdown → the platform's markup (unchanged where the platform, or its page, reads Markdown). */
  renderMarkdown(markdown: string): string;
  /** The pending card: the platform's layout, markup and buttons. */
  renderApprovalCard(card: ApprovalCard, copy: CardCopy): OutboundMessage;
  /** The card once decided: `outcome` (one line) in place of the instructions, and no buttons. */
  renderDecidedCard(card: ApprovalCard, outcome: string, copy: CardCopy): OutboundMessage;
  /** Button data in the approval namespace at all; data outside it is left to other handlers. */
  isApprovalButton(actionId: string): boolean;
  /** A press read back from button data (and the button's separate value); null when malformed, never a throw. */
  parseApprovalPress(actionId: string, value?: string): ApprovalPress | null;
  /** An `approver_recipient` in the platform's native form (§12.1). */
  parseRecipient(value: string): ChatPlace;
  /** A chat id that names a group (a route recipient's text prompt then warns that everyone sees it). */
  isGroupChat(chat: string): boolean;
  /** §11 check 1 within one channel: `origin` is the card's destination chat. */
  sameDestination(destination: { chat: string; thread: string | null }, origin: ChatPlace): boolean;
  /** A failed send as an operator reads it (logs, undeliverable reasons); `what` names the message. */
  describeSendError(err: unknown, what: string): string;
}

/** The dialect of a channel key (`<type>.<alias>`, or a bare type). */
export type DialectOf = (channelKey: string) => ChannelDialect;

/** `<type>` of a channel key `<type>.<alias>`. */
export const channelKind = (channelKey: string): string => channelKey.split('.')[0] ?? '';

/** The common native recipient form: `<chat>` or `<chat>:<thread>` (split at the last colon). */
export function splitRecipient(value: string): ChatPlace {
  const v = value.trim();
  const at = v.lastIndexOf(':');
  if (at <= 0 || at === v.length - 1) return { chat: v };
  return { chat: v.slice(0, at), thread: v.slice(at + 1) };
}

/** The common §11 check 1: the same chat and the same thread (none on both sides counts as the same). */
export const sameChatAndThread = (destination: { chat: string; thread: string | null }, origin: ChatPlace) =>
  origin.chat === destination.chat && (origin.thread ?? null) === destination.thread;
