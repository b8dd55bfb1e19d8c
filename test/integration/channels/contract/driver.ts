// What the contract suite needs from a platform: its fake and adapter started, and the fake's side of each case.
import type { ChannelAdapter, ChannelHost } from '../../../../src/channel-host/types.ts';

/** The contract's cases; a driver names the ones its platform cannot do, with the reason. */
export type ContractCase =
  | 'inbound text'
  | 'reply'
  | 'thread'
  | 'chunking'
  | 'button round trip'
  | 'edit'
  | 'rate-limit retry'
  | 'connection drop';

export interface WireButton {
  id: string;
  label: string;
}

/** A message of the bot as the platform holds it now (edits applied). */
export interface WireMessage {
  id: string;
  /** Where it is, in the driver's terms (comparable with Injected.place). */
  place: string;
  text: string;
  /** Rows of buttons; [] when none. */
  buttons: WireButton[][];
}

/** A user's text put on the wire, and what the adapter must report for it. */
export interface Injected {
  expect: { chat: string; thread?: string; isDirect: boolean; sender: { id: string } };
  /** The place a reply to this conversation must land in (see WireMessage.place). */
  place: string;
}

export interface PlatformDriver {
  readonly name: string;
  /** Cases this platform cannot do meaningfully, with why (they are skipped, and the reason shown). */
  readonly cannot?: Partial<Record<ContractCase, string>>;
  /** Starts the fake and the adapter (the adapter started with `host`). */
  start(host: ChannelHost): Promise<ChannelAdapter>;
  stop(): Promise<void>;
  /** A user's text in a direct chat, or in a thread/topic of a group chat. */
  injectText(where: 'chat' | 'thread', text: string): Promise<Injected>;
  /** The bot's messages, oldest first. */
  sent(): WireMessage[];
  /** A user presses a button of the bot's message; returns who pressed. */
  press(messageId: string, actionId: string): Promise<{ sender: { id: string } }>;
  /** The platform answers the next send with 429 and this retry_after. */
  rateLimitNextSend(retryAfterSecs: number): void;
  /** Send requests that reached the platform carrying this text (refused ones included). */
  sendAttempts(text: string): number;
  /** Cuts the adapter's inbound connection (long poll, gateway, socket) as a network failure would. */
  dropConnection(): Promise<void>;
}
