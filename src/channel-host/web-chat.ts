// The web chat's contract with the gateway's HTTP routes (src/web/chat-routes.ts): what a browser may do in a
// chat, and the live feed of one chat. Implemented by channels/web; every gateway runs it (not single-consumer).
import { z } from 'zod';
import type { ChannelAdapter, ReceiveResult } from './types.ts';

/** The signed-in browser user, as the auth hook established it. */
export interface WebChatUser {
  /** `web:<login>`: the sender id (what peer groups name). */
  peerId: string;
  /** This browser session's chat id. */
  chatId: string;
}

/** One item of a chat's feed: `id` is the Redis stream id (absent for ephemeral ones: typing). */
export interface WebChatFeedItem {
  id?: string;
  /** JSON of a WebChatEvent. */
  data: string;
}

export type WebChatButton = { id: string; label: string; style?: string | undefined };

/**
 * What a chat's Redis stream holds: the text, never HTML, so a record read back is validated and rendered
 * (sanitised) when it is served, whatever wrote it.
 */
export const storedWebChatEventSchema = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('msg'),
    id: z.string().min(1).max(200),
    from: z.enum(['bot', 'user']),
    text: z.string(),
    /** `plain`: text of a message whose formatted form was built for another platform (an approval card). */
    format: z.enum(['markdown', 'plain']),
    buttons: z
      .array(z.array(z.object({ id: z.string().min(1), label: z.string(), style: z.string().optional() })))
      .optional(),
  }),
  z.object({
    t: z.literal('edit'),
    id: z.string().min(1).max(200),
    text: z.string(),
    format: z.enum(['markdown', 'plain']),
    buttons: z
      .array(z.array(z.object({ id: z.string().min(1), label: z.string(), style: z.string().optional() })))
      .optional(),
  }),
]);
export type StoredWebChatEvent = z.infer<typeof storedWebChatEventSchema>;

/** What the page applies: HTML here is already sanitised by the server. */
export type WebChatEvent =
  | { t: 'msg'; id: string; from: 'bot' | 'user'; html: string; buttons?: WebChatButton[][] }
  | { t: 'edit'; id: string; html: string; buttons?: WebChatButton[][] }
  | { t: 'typing' };

export interface WebChatEndpoint extends ChannelAdapter {
  readonly alias: string;
  readonly title: string;
  /** A message typed in the browser; `clientId` dedupes a resend. */
  post(user: WebChatUser, text: string, clientId: string): Promise<ReceiveResult>;
  /** A button press on message `messageId`. */
  press(user: WebChatUser, messageId: string, actionId: string): Promise<ReceiveResult>;
  /**
   * The chat's stored events after stream id `after` (exclusive; undefined: from the start), then live ones,
   * in order, until the returned function is called.
   */
  follow(
    chatId: string,
    after: string | undefined,
    onItem: (item: WebChatFeedItem) => void,
  ): Promise<() => void>;
}

export function isWebChatEndpoint(a: ChannelAdapter): a is WebChatEndpoint {
  return a.key.startsWith('web.') && 'follow' in a && 'post' in a;
}
