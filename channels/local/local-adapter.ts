// A local, in-process channel for tests and demos: inject messages, read the replies baton sends.
import { EventEmitter } from 'node:events';
import type {
  ChannelAdapter,
  ChannelHost,
  MessageRef,
  ReceiveResult,
  Recipient,
} from '../../src/channel/types.ts';

export interface LocalReply {
  to: Recipient;
  text: string;
  messageId: string;
}

export interface InjectOptions {
  chat: string;
  text: string;
  senderId?: string;
  thread?: string;
  eventId?: string;
}

export interface LocalChannel extends ChannelAdapter {
  readonly replies: LocalReply[];
  /** Hands a message to the runtime the way a platform adapter would. */
  inject(opts: InjectOptions): Promise<ReceiveResult>;
  /** Resolves once `count` replies have been sent to `chat` (or in total when chat is omitted). */
  waitForReplies(count: number, opts?: { chat?: string; timeoutMs?: number }): Promise<LocalReply[]>;
  /** Makes the next `n` sends fail with this error (to exercise retries and retry_after). */
  failNextSends(n: number, error: () => Error): void;
}

export function createLocalChannel(alias = 'test', maxMessageLength = 4000): LocalChannel {
  const key = `local.${alias}`;
  const replies: LocalReply[] = [];
  const events = new EventEmitter();
  let host: ChannelHost | null = null;
  let seq = 0;
  let failures: { left: number; error: () => Error } = { left: 0, error: () => new Error('send failed') };

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

  return {
    key,
    maxMessageLength,
    replies,
    async start(h) {
      host = h;
    },
    async stop() {
      host = null;
    },
    async send(to, msg): Promise<MessageRef> {
      if (failures.left > 0) {
        failures.left--;
        throw failures.error();
      }
      const messageId = String(++seq);
      replies.push({ to, text: msg.text, messageId });
      countFor(); // settles a reset first
      perChat.set(to.chat, (perChat.get(to.chat) ?? 0) + 1);
      counted++;
      events.emit('reply');
      return { channel: key, chat: to.chat, messageId };
    },
    async inject(opts) {
      if (!host) throw new Error(`local channel ${key} is not started`);
      return host.receive({
        kind: 'message',
        channel: key,
        eventId: opts.eventId ?? `evt-${Date.now()}-${++seq}`,
        chat: opts.chat,
        ...(opts.thread ? { thread: opts.thread } : {}),
        sender: { id: opts.senderId ?? 'local-user' },
        text: opts.text,
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
  };
}
