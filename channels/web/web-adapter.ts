// The web chat adapter ([channels.web.<alias>]): a per-chat Redis stream is the chat's transcript and live feed,
// so any gateway can serve the browser and any gateway's reply pump can send. Not single-consumer.

import { randomBytes, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type {
  ChannelHost,
  MessageRef,
  OutboundMessage,
  ReceiveResult,
  Recipient,
} from '../../src/channel-host/types.ts';
import {
  type StoredWebChatEvent,
  storedWebChatEventSchema,
  UPLOAD_GONE,
  type WebChatButton,
  type WebChatEndpoint,
  type WebChatEvent,
  type WebChatFeedItem,
  type WebChatUser,
} from '../../src/channel-host/web-chat.ts';
import type { Logger } from '../../src/core/logger.ts';
import { createRedis } from '../../src/core/redis.ts';
import { parseRecord } from '../../src/core/redis-record.ts';
import type { RedisTarget } from '../../src/core/redis-target.ts';
import { formatSize } from '../../src/media/media-messages.ts';
import { webDialect } from './dialect.ts';
import { createWebFileStore } from './web-files.ts';
import type { WebChatHub } from './web-hub.ts';
import { createWebUploadStore } from './web-uploads.ts';

/** Events kept per chat (the stream is capped approximately); older ones leave the page's replay. */
export const CHAT_STREAM_MAXLEN = 2000;
/** A chat nobody wrote to for this long is forgotten. */
export const CHAT_STREAM_TTL_SECS = 7 * 24 * 60 * 60;
const REPLAY_BATCH = 200;
const STREAM_ID = /^\d{1,20}-\d{1,20}$/;

export interface WebRenderer {
  /** Markdown → sanitised HTML. */
  markdown(text: string): string;
  /** Plain text → escaped HTML. */
  plain(text: string): string;
}

export interface WebAdapterOptions {
  alias: string;
  title: string;
  redisTarget: RedisTarget;
  prefix: string;
  hub: WebChatHub;
  render: WebRenderer;
  logger: Logger;
}

const buttonsOf = (msg: OutboundMessage): WebChatButton[][] =>
  (msg.buttons ?? []).map((row) => row.map((b) => ({ id: b.id, label: b.label, style: b.style })));

export function createWebAdapter(opts: WebAdapterOptions): WebChatEndpoint {
  const key = `web.${opts.alias}`;
  const { hub, logger } = opts;
  let host: ChannelHost | null = null;
  let redis: Redis | null = null;
  const streamKey = (chatId: string) => `${opts.prefix}:web:chat:${opts.alias}:${chatId}`;

  const conn = (): Redis => {
    if (!redis) throw new Error(`web chat ${key} is not started`);
    return redis;
  };
  const stores = { redis: conn, prefix: opts.prefix, alias: opts.alias, logger };
  const uploads = createWebUploadStore(stores);
  const files = createWebFileStore(stores);
  const fileUrl = (id: string) => `/chat/${encodeURIComponent(opts.alias)}/files/${id}`;
  // Markup (an approval card built for another platform) means `text` is the plain form (OutboundMessage).
  const formatOf = (msg: OutboundMessage): 'markdown' | 'plain' => (msg.markup ? 'plain' : 'markdown');
  const render = (text: string, format: 'markdown' | 'plain') =>
    format === 'plain' ? opts.render.plain(text) : opts.render.markdown(text);

  /** A stored event as the page gets it (rendered now), or null when the record is unreadable (logged). */
  function served(key: string, data: string): WebChatEvent | null {
    const e = parseRecord(storedWebChatEventSchema, data, { logger, key, what: 'web chat event' });
    if (!e) return null;
    const html = render(e.text, e.format);
    if (e.t === 'edit') return { t: 'edit', id: e.id, html, ...(e.buttons ? { buttons: e.buttons } : {}) };
    const { file, attachments } = e;
    return {
      t: 'msg',
      id: e.id,
      from: e.from,
      html,
      ...(e.buttons ? { buttons: e.buttons } : {}),
      ...(attachments?.length
        ? { attachments: attachments.map((a) => ({ name: a.name, size: formatSize(a.size) })) }
        : {}),
      ...(file
        ? { file: { url: fileUrl(file.id), name: file.name, size: formatSize(file.size), image: file.image } }
        : {}),
    };
  }

  /**
   * The stream entry of each message's latest edit made here: a streamed answer is edited many times a second, and
   * only its newest text is worth keeping (older edits would push the chat's earlier messages out of the stream).
   */
  const lastEdit = new Map<string, string>();
  const MAX_TRACKED_EDITS = 10_000;

  async function append(chatId: string, event: StoredWebChatEvent): Promise<void> {
    const r = conn();
    const k = streamKey(chatId);
    const editKey = event.t === 'edit' ? `${chatId}\u0000${event.id}` : null;
    const superseded = editKey ? lastEdit.get(editKey) : undefined;
    const tx = r.multi().xadd(k, 'MAXLEN', '~', String(CHAT_STREAM_MAXLEN), '*', 'e', JSON.stringify(event));
    if (superseded) tx.xdel(k, superseded);
    const res = await tx.expire(k, CHAT_STREAM_TTL_SECS).exec();
    const entry = res?.[0]?.[1];
    if (editKey && typeof entry === 'string') {
      if (lastEdit.size >= MAX_TRACKED_EDITS) lastEdit.clear();
      lastEdit.set(editKey, entry);
    }
    await hub.notify(r, opts.alias, chatId, 'append');
  }

  function hostOf(): ChannelHost {
    if (!host) throw new Error(`web chat ${key} is not started`);
    return host;
  }

  return {
    key,
    alias: opts.alias,
    title: opts.title,
    maxMessageLength: webDialect.capabilities.maxMessageLength,
    singleConsumer: false,
    async start(h) {
      host = h;
      redis = createRedis(opts.redisTarget);
      redis.on('error', (err: Error) => logger.warn({ err: err.message }, 'web chat redis error'));
      await hub.acquire();
    },
    async stop() {
      host = null;
      await hub.release();
      const r = redis;
      redis = null;
      await r?.quit().catch(() => r.disconnect());
    },
    async send(to: Recipient, msg: OutboundMessage): Promise<MessageRef> {
      const messageId = `b-${randomBytes(9).toString('base64url')}`;
      const buttons = buttonsOf(msg);
      await append(to.chat, {
        t: 'msg',
        id: messageId,
        from: 'bot',
        text: msg.text,
        format: formatOf(msg),
        ...(buttons.length ? { buttons } : {}),
      });
      return { channel: key, chat: to.chat, messageId };
    },
    // No limit of its own beyond the channel's max_attachment_mb (no maxUploadBytes).
    async sendFile(to, file) {
      const stored = await files.put(to.chat, file);
      const messageId = `b-${randomBytes(9).toString('base64url')}`;
      await append(to.chat, {
        t: 'msg',
        id: messageId,
        from: 'bot',
        text: file.caption ?? '',
        format: 'markdown',
        file: { id: stored.id, name: stored.name, size: stored.size, image: stored.image },
      });
      return { channel: key, chat: to.chat, messageId };
    },
    async download(source, maxBytes) {
      return uploads.download(source, maxBytes);
    },
    uploads,
    async file(user, id) {
      return files.get(user.chatId, id);
    },
    async edit(ref, msg) {
      await append(ref.chat, {
        t: 'edit',
        id: ref.messageId,
        text: msg.text,
        format: formatOf(msg),
        buttons: buttonsOf(msg),
      });
    },
    async typing(to) {
      // Ephemeral: published, never stored (a replay must not show a stale indicator).
      await hub.notify(conn(), opts.alias, to.chat, 'typing');
    },
    async post(user: WebChatUser, text: string, clientId: string, ids = []): Promise<ReceiveResult> {
      const id = `u-${clientId}`;
      const attachments = await uploads.attachments(user, ids, clientId);
      if (!attachments) return { accepted: false, reason: 'invalid', detail: UPLOAD_GONE };
      const echo = attachments.map((a) => ({ name: a.name, size: a.size ?? 0 }));
      // Shown at once (and on every gateway's feed); a resend with the same clientId replaces it on the page.
      await append(user.chatId, {
        t: 'msg',
        id,
        from: 'user',
        text,
        format: 'markdown',
        ...(echo.length ? { attachments: echo } : {}),
      });
      const res = await hostOf().receive({
        kind: 'message',
        channel: key,
        eventId: `${user.chatId}:${clientId}`,
        chat: user.chatId,
        sender: { id: user.peerId },
        text,
        ...(attachments.length ? { attachments } : {}),
        isDirect: true,
        addressedToBot: true,
        receivedAt: new Date().toISOString(),
      });
      // Taken (or taken before): the host holds its own copy of the bytes, so the user's places free up.
      if (res.accepted || res.reason === 'duplicate') await uploads.sent(user, ids, clientId);
      return res;
    },
    async press(user, messageId, actionId) {
      return hostOf().receive({
        kind: 'action',
        channel: key,
        eventId: randomUUID(),
        chat: user.chatId,
        sender: { id: user.peerId },
        actionId,
        messageId,
        receivedAt: new Date().toISOString(),
      });
    },
    async follow(chatId, after, onItem: (item: WebChatFeedItem) => void) {
      const r = conn();
      const k = streamKey(chatId);
      let last = after && STREAM_ID.test(after) ? after : undefined;
      let closed = false;
      let chain: Promise<void> = Promise.resolve();
      // Reads are chained: a notification during a read is served by the next read, from the last id sent.
      const pull = () => {
        chain = chain
          .then(async () => {
            for (;;) {
              if (closed) return;
              const entries = await r.xrange(k, last ? `(${last}` : '-', '+', 'COUNT', REPLAY_BATCH);
              for (const [id, fields] of entries) {
                last = id;
                const event = fields[1] === undefined ? null : served(`${k} ${id}`, fields[1]);
                if (!closed && event) onItem({ id, data: JSON.stringify(event) });
              }
              if (entries.length < REPLAY_BATCH) return;
            }
          })
          .catch((err: unknown) =>
            logger.warn(
              { err: err instanceof Error ? err.message : String(err) },
              'web chat feed read failed',
            ),
          );
      };
      const unlisten = hub.listen(opts.alias, chatId, (signal) => {
        if (signal === 'typing') onItem({ data: JSON.stringify({ t: 'typing' } satisfies WebChatEvent) });
        else pull();
      });
      pull();
      await chain;
      return () => {
        closed = true;
        unlisten();
      };
    },
  };
}
