// A local, in-process channel for tests and demos: inject messages, read the replies baton sends.
import { EventEmitter } from 'node:events';
import type {
  Button,
  ChannelAdapter,
  ChannelHost,
  MessageRef,
  OutboundFile,
  OutboundMessage,
  ReceiveResult,
  Recipient,
} from '../../src/channel-host/types.ts';
import { type Attachment, AttachmentFetchError, type AttachmentKind } from '../../src/media/attachment.ts';
import { attachmentReasons } from '../../src/media/media-messages.ts';
import { localDialect } from './dialect.ts';

export interface LocalReply {
  to: Recipient;
  text: string;
  messageId: string;
  /** Current buttons (an edit replaces them; none once removed). */
  buttons: Button[][];
  /** Every text and button set this message had, oldest first (the first is the send). */
  versions: OutboundMessage[];
  /** A file sent with sendFile (send_file); `text` is then its caption. */
  file?: OutboundFile;
}

export interface PressOptions {
  messageId: string;
  actionId: string;
  senderId?: string;
  eventId?: string;
  /** A client still showing buttons the message no longer has (a late press). */
  stale?: boolean;
}

/** A file sent with an injected message, as a platform would offer it for download. */
export interface LocalFile {
  name: string;
  kind: AttachmentKind;
  /** What a download returns; absent: the platform no longer has the file. */
  bytes?: Uint8Array;
  /** The size the platform claims (default: the bytes' length; null: it claims none). */
  size?: number | null;
  /** The MIME type the platform claims. */
  mime?: string;
  /** The platform refuses the download with this HTTP status. */
  refuseStatus?: number;
}

export interface InjectOptions {
  chat: string;
  text: string;
  senderId?: string;
  thread?: string;
  eventId?: string;
  /** Files with the message: each becomes an attachment whose `source` the adapter's `download` serves. */
  files?: LocalFile[];
}

export interface LocalChannel extends ChannelAdapter {
  readonly replies: LocalReply[];
  /** Hands a message to the runtime the way a platform adapter would. */
  inject(opts: InjectOptions): Promise<ReceiveResult>;
  /** Resolves once `count` replies have been sent to `chat` (or in total when chat is omitted). */
  waitForReplies(count: number, opts?: { chat?: string; timeoutMs?: number }): Promise<LocalReply[]>;
  /** Presses a button of a sent message, as a platform user would (the button must be on it). */
  press(opts: PressOptions): Promise<ReceiveResult>;
  /** Chats that got a typing indicator, one entry per call. */
  readonly typings: Recipient[];
  /** What each press showed its presser alone (an approval's ack), by the press's event id. */
  readonly notices: { eventId: string; senderId: string; text: string }[];
  /** Makes the next `n` sends fail with this error (to exercise retries and retry_after). */
  failNextSends(n: number, error: (to: Recipient, msg: OutboundMessage) => Error): void;
  /** Every `download` call's source, in order (a redelivered message must not add any). */
  readonly downloads: string[];
  download(source: string, maxBytes: number, signal: AbortSignal): Promise<Uint8Array>;
}

export function createLocalChannel(
  alias = 'test',
  maxMessageLength = localDialect.capabilities.maxMessageLength,
): LocalChannel {
  const key = `local.${alias}`;
  const replies: LocalReply[] = [];
  const typings: Recipient[] = [];
  const notices: LocalChannel['notices'] = [];
  const byId = new Map<string, LocalReply>();
  const events = new EventEmitter();
  events.setMaxListeners(0); // one waitForReplies listener per waiting caller (benchmarks wait in 50 chats)
  let host: ChannelHost | null = null;
  let seq = 0;
  const files = new Map<string, LocalFile>();
  const downloads: string[] = [];
  /** The attachments of an injected message; the same event id gives the same sources (a redelivery). */
  const attachmentsOf = (eventId: string, list: readonly LocalFile[]): Attachment[] =>
    list.map((f, i) => {
      const source = `local-file:${eventId}:${i}`;
      files.set(source, f);
      const size = f.size === undefined ? f.bytes?.byteLength : f.size;
      return {
        kind: f.kind,
        name: f.name,
        source,
        ...(size !== undefined && size !== null ? { size } : {}),
        ...(f.mime ? { mime: f.mime } : {}),
      };
    });
  let failures: { left: number; error: (to: Recipient, msg: OutboundMessage) => Error } = {
    left: 0,
    error: () => new Error('send failed'),
  };

  const perChat = new Map<string, number>();
  const matching = (chat?: string) => replies.filter((r) => chat === undefined || r.to.chat === chat);
  // Counted, not filtered, on every reply: waiting for thousands of replies stays linear.
  let counted = 0;
  const countFor = (chat?: string) => {
    if (replies.length < counted) {
      // a test emptied `replies`: count again from what is left
      perChat.clear();
      for (const r of replies) perChat.set(r.to.chat, (perChat.get(r.to.chat) ?? 0) + 1);
      counted = replies.length;
    }
    return chat === undefined ? replies.length : (perChat.get(chat) ?? 0);
  };

  async function record(to: Recipient, msg: OutboundMessage, file?: OutboundFile): Promise<MessageRef> {
    if (failures.left > 0) {
      failures.left--;
      throw failures.error(to, msg);
    }
    const messageId = String(++seq);
    const reply: LocalReply = {
      to,
      text: msg.text,
      messageId,
      buttons: msg.buttons ?? [],
      versions: [msg],
      ...(file ? { file } : {}),
    };
    replies.push(reply);
    byId.set(messageId, reply);
    countFor(); // settles a reset first
    perChat.set(to.chat, (perChat.get(to.chat) ?? 0) + 1);
    counted++;
    events.emit('reply');
    return { channel: key, chat: to.chat, messageId };
  }

  return {
    key,
    maxMessageLength,
    replies,
    typings,
    notices,
    async start(h) {
      host = h;
    },
    async stop() {
      host = null;
    },
    send: (to, msg) => record(to, msg),
    sendFile: (to, file) => record(to, { text: file.caption ?? '' }, file),
    async edit(ref, msg) {
      const reply = byId.get(ref.messageId);
      if (!reply || ref.channel !== key) throw new Error(`local channel ${key}: no message ${ref.messageId}`);
      reply.text = msg.text;
      reply.buttons = msg.buttons ?? [];
      reply.versions.push(msg);
    },
    async typing(to) {
      typings.push(to);
    },
    async press(opts) {
      if (!host) throw new Error(`local channel ${key} is not started`);
      const reply = byId.get(opts.messageId);
      const shown = opts.stale ? reply?.versions.flatMap((v) => v.buttons ?? []) : reply?.buttons;
      if (!reply || !shown?.flat().some((b) => b.id === opts.actionId)) {
        throw new Error(`local channel ${key}: message ${opts.messageId} has no button ${opts.actionId}`);
      }
      const eventId = opts.eventId ?? `press-${Date.now()}-${++seq}`;
      const senderId = opts.senderId ?? 'local-user';
      const result = await host.receive({
        kind: 'action',
        channel: key,
        eventId,
        chat: reply.to.chat,
        ...(reply.to.thread ? { thread: reply.to.thread } : {}),
        sender: { id: senderId },
        actionId: opts.actionId,
        messageId: opts.messageId,
        receivedAt: new Date().toISOString(),
      });
      if (result.accepted && result.notice) notices.push({ eventId, senderId, text: result.notice });
      return result;
    },
    async inject(opts) {
      if (!host) throw new Error(`local channel ${key} is not started`);
      const eventId = opts.eventId ?? `evt-${Date.now()}-${++seq}`;
      return host.receive({
        kind: 'message',
        channel: key,
        eventId,
        chat: opts.chat,
        ...(opts.thread ? { thread: opts.thread } : {}),
        sender: { id: opts.senderId ?? 'local-user' },
        text: opts.text,
        ...(opts.files?.length ? { attachments: attachmentsOf(eventId, opts.files) } : {}),
        isDirect: true,
        addressedToBot: true,
        receivedAt: new Date().toISOString(),
      });
    },
    waitForReplies(count, opts = {}) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (countFor(opts.chat) < count) return false;
          events.off('reply', check);
          clearTimeout(timer);
          resolve(matching(opts.chat));
          return true;
        };
        const timer = setTimeout(() => {
          events.off('reply', check);
          reject(new Error(`timed out waiting for ${count} replies (got ${matching(opts.chat).length})`));
        }, opts.timeoutMs ?? 10_000);
        if (!check()) events.on('reply', check);
      });
    },
    failNextSends(n, error) {
      failures = { left: n, error };
    },
    downloads,
    async download(source, maxBytes, signal) {
      downloads.push(source);
      if (signal.aborted) throw new AttachmentFetchError(attachmentReasons.timedOut);
      const file = files.get(source);
      if (file?.refuseStatus !== undefined)
        throw new AttachmentFetchError(attachmentReasons.refused(file.refuseStatus));
      if (!file?.bytes) throw new AttachmentFetchError(attachmentReasons.notFound);
      // As fetchLimited does: a body past the limit is never held whole.
      if (file.bytes.byteLength > maxBytes)
        throw new AttachmentFetchError(attachmentReasons.tooLarge(maxBytes));
      return file.bytes;
    },
  };
}
