// The web chat's contract with the gateway's HTTP routes (src/web/chat-routes.ts): what a browser may do in a
// chat, and the live feed of one chat. Implemented by channels/web; every gateway runs it (not single-consumer).
import { z } from 'zod';
import type { AttachmentKind } from '../media/attachment.ts';
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

const buttonsSchema = z
  .array(z.array(z.object({ id: z.string().min(1), label: z.string(), style: z.string().optional() })))
  .optional();

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
    buttons: buttonsSchema,
    /** The user's uploads sent with the message (its echo lists their names). */
    attachments: z
      .array(z.object({ name: z.string().max(10_000), size: z.number().int().nonnegative() }))
      .max(50)
      .optional(),
    /** A file the bot sent (send_file): served at /chat/<alias>/files/<id> to this chat only. */
    file: z
      .object({
        id: z.uuid(),
        name: z.string().min(1).max(200),
        size: z.number().int().nonnegative(),
        image: z.boolean(),
      })
      .optional(),
  }),
  z.object({
    t: z.literal('edit'),
    id: z.string().min(1).max(200),
    text: z.string(),
    format: z.enum(['markdown', 'plain']),
    buttons: buttonsSchema,
  }),
]);
export type StoredWebChatEvent = z.infer<typeof storedWebChatEventSchema>;

/** A file as the page shows it: names and sizes are text (the page never parses them as HTML). */
export interface WebChatFileView {
  url: string;
  name: string;
  /** Formatted (`12.3 KB`). */
  size: string;
  /** Shown as a preview too (its bytes are a PNG/JPEG/GIF/WEBP). */
  image: boolean;
}

/** What the page applies: HTML here is already sanitised by the server. */
export type WebChatEvent =
  | {
      t: 'msg';
      id: string;
      from: 'bot' | 'user';
      html: string;
      buttons?: WebChatButton[][];
      attachments?: { name: string; size: string }[];
      file?: WebChatFileView;
    }
  | { t: 'edit'; id: string; html: string; buttons?: WebChatButton[][] }
  | { t: 'typing' };

export interface WebChatEndpoint extends ChannelAdapter {
  readonly alias: string;
  readonly title: string;
  /**
   * A message typed in the browser, with the ids of the user's uploads it sends; `clientId` dedupes a resend.
   * An upload that is not this user's in this chat (or expired) refuses the message: `invalid`, detail
   * UPLOAD_GONE.
   */
  post(
    user: WebChatUser,
    text: string,
    clientId: string,
    uploads?: readonly string[],
  ): Promise<ReceiveResult>;
  /** Files a signed-in user uploads for their chat, before the message that sends them. */
  readonly uploads: WebUploads;
  /** A file the bot sent to `user`'s chat; null when it is another chat's, expired or unknown. */
  file(user: WebChatUser, id: string): Promise<WebChatFile | null>;
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

/** `detail` of a post refused because an upload it names is gone or not the sender's. */
export const UPLOAD_GONE = 'upload_gone';
/** Uploads one user may hold before sending them: one message's worth. */
export const PENDING_UPLOADS_MAX = 10;

export interface WebUpload {
  id: string;
  name: string;
  size: number;
  kind: AttachmentKind;
}

export interface WebUploads {
  /** Holds one of the user's pending places (the per-user cap) before the body is read; null when none is left. */
  reserve(user: WebChatUser): Promise<string | null>;
  /** Stores the bytes of a reserved upload, owned by this user and chat. */
  store(
    user: WebChatUser,
    id: string,
    file: { name: string; mime?: string; bytes: Uint8Array },
  ): Promise<WebUpload>;
  /** Gives a reserved place back (the body was refused or never arrived). */
  release(user: WebChatUser, id: string): Promise<void>;
}

export interface WebChatFile {
  /** Safe already (safe-name.ts). */
  name: string;
  /** An image type when the bytes are one, else application/octet-stream: never anything a browser would run. */
  mime: string;
  bytes: Buffer;
}

export function isWebChatEndpoint(a: ChannelAdapter): a is WebChatEndpoint {
  return a.key.startsWith('web.') && 'follow' in a && 'post' in a;
}
