// The web chat's HTTP face: GET /chat/<alias> (page), GET …/events (SSE feed with Last-Event-ID replay),
// POST …/messages and …/actions (CSRF-checked by the auth hook before they get here).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  PENDING_UPLOADS_MAX,
  UPLOAD_GONE,
  type WebChatEndpoint,
  type WebChatUser,
} from '../channel-host/web-chat.ts';
import type { Logger } from '../core/logger.ts';
import { MAX_ATTACHMENTS_PER_MESSAGE } from '../media/attachment.ts';
import { createSseStreams } from '../ops-api/sse-streams.ts';
import { NOT_SIGNED_IN } from './auth-messages.ts';
import { registerChatFileRoutes } from './chat-files.ts';
import { BAD_ACTION, BAD_MESSAGE, NOT_ACCEPTED, noChat, UPLOAD_GONE_TEXT } from './chat-messages.ts';
import { chatPage } from './chat-page.ts';
import { PAGE_HEADERS } from './page.ts';

/** Longest message a browser may post (the server body limit is 16 KiB). */
export const CHAT_TEXT_MAX = 8000;
/** Comment lines keep idle proxies from closing the feed. */
const KEEPALIVE_MS = 25_000;

const messageBody = z
  .object({
    // Well-formed here too: the echo on the page is stored before the host sees the message.
    text: z
      .string()
      .trim()
      .max(CHAT_TEXT_MAX)
      .transform((t) => t.toWellFormed()),
    clientId: z.uuid(),
    /** Ids from POST …/uploads: files only (no text) is a message too. */
    uploads: z.array(z.uuid()).max(MAX_ATTACHMENTS_PER_MESSAGE).default([]),
  })
  .refine((b) => b.text !== '' || b.uploads.length > 0);
const actionBody = z.object({
  messageId: z.string().min(1).max(200),
  actionId: z.string().min(1).max(200),
});

type AliasReq = FastifyRequest<{ Params: { alias: string } }>;

export function registerChatRoutes(
  app: FastifyInstance,
  chats: readonly WebChatEndpoint[],
  logger: Logger,
  /** A chat's `max_attachment_mb` in bytes (uploads stop there). */
  limitBytesOf: (alias: string) => number,
): void {
  const byAlias = new Map(chats.map((c) => [c.alias, c]));
  const streams = createSseStreams(app, KEEPALIVE_MS);

  // The auth hook answers first when there is no session; this only keeps a request from never being answered.
  const signedIn = (user: WebChatUser | undefined, reply: FastifyReply): user is WebChatUser => {
    if (!user) void reply.code(401).send({ error: NOT_SIGNED_IN });
    return user !== undefined;
  };

  const chatOf = (req: AliasReq, reply: FastifyReply): WebChatEndpoint | undefined => {
    const chat = byAlias.get(req.params.alias);
    if (!chat) void reply.code(404).send({ error: noChat(req.params.alias) });
    return chat;
  };

  app.get('/chat/:alias', async (req: AliasReq, reply) => {
    const chat = chatOf(req, reply);
    const user = req.webUser;
    if (!chat || !signedIn(user, reply)) return reply;
    return reply
      .headers(PAGE_HEADERS)
      .type('text/html; charset=utf-8')
      .send(chatPage({ alias: chat.alias, title: chat.title, user }));
  });

  app.get('/chat/:alias/events', async (req: AliasReq, reply) => {
    const chat = chatOf(req, reply);
    const user = req.webUser;
    if (!chat || !signedIn(user, reply)) return reply;
    const lastId = req.headers['last-event-id'];
    await streams.serve(
      reply,
      (write) => chat.follow(user.chatId, typeof lastId === 'string' ? lastId : undefined, write),
      // The browser reconnects on its own; the feed resumes from its Last-Event-ID.
      (err) =>
        logger.warn(
          { channel: chat.key, err: err instanceof Error ? err.message : String(err) },
          'web chat feed failed',
        ),
    );
  });

  app.post('/chat/:alias/messages', async (req: AliasReq, reply) => {
    const chat = chatOf(req, reply);
    const user = req.webUser;
    if (!chat || !signedIn(user, reply)) return reply;
    const body = messageBody.safeParse(req.body);
    if (!body.success) return reply.code(400).send({ error: BAD_MESSAGE });
    const res = await chat.post(user, body.data.text, body.data.clientId, body.data.uploads);
    if (res.accepted) return reply.code(202).send({ accepted: true });
    if (res.reason === 'invalid' && res.detail === UPLOAD_GONE)
      return reply.code(409).send({ accepted: false, reason: UPLOAD_GONE, error: UPLOAD_GONE_TEXT });
    // A resend of a message already taken (network retry): it is there, nothing to report.
    if (res.reason === 'duplicate') return reply.code(200).send({ accepted: true, duplicate: true });
    logger.info(
      { channel: chat.key, reason: res.reason, user: user.peerId },
      'web chat message not accepted',
    );
    return reply
      .code(res.reason === 'unauthorised' ? 403 : 422)
      .send({ accepted: false, reason: res.reason, error: NOT_ACCEPTED[res.reason] ?? res.reason });
  });

  registerChatFileRoutes(app, {
    chatOf,
    signedIn,
    limitBytesOf,
    pendingMax: PENDING_UPLOADS_MAX,
    logger,
  });

  app.post('/chat/:alias/actions', async (req: AliasReq, reply) => {
    const chat = chatOf(req, reply);
    const user = req.webUser;
    if (!chat || !signedIn(user, reply)) return reply;
    const body = actionBody.safeParse(req.body);
    if (!body.success) return reply.code(400).send({ error: BAD_ACTION });
    const res = await chat.press(user, body.data.messageId, body.data.actionId);
    if (res.accepted) return reply.send({ accepted: true, ...(res.notice ? { notice: res.notice } : {}) });
    return reply
      .code(422)
      .send({ accepted: false, reason: res.reason, error: NOT_ACCEPTED[res.reason] ?? res.reason });
  });
}
