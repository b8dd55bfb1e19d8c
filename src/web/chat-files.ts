// Files in the web chat over HTTP: POST /chat/<alias>/uploads (the raw file as the body, its name in
// `x-file-name`, stored no further than the channel's max_attachment_mb) and GET /chat/<alias>/files/<id> (a file
// the bot sent, to its own chat only, always as a download). Auth and CSRF come from the auth hook, before any
// byte of the body is read.
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebChatEndpoint, WebChatUser } from '../channel-host/web-chat.ts';
import type { Logger } from '../core/logger.ts';
import { formatLimit } from '../media/media-messages.ts';
import { safeName } from '../media/safe-name.ts';
import {
  BAD_UPLOAD_NAME,
  EMPTY_UPLOAD,
  FILE_NOT_FOUND,
  tooManyUploads,
  UPLOAD_INTERRUPTED,
  uploadTooLarge,
} from './chat-messages.ts';

type AliasReq = FastifyRequest<{ Params: { alias: string } }>;
type FileReq = FastifyRequest<{ Params: { alias: string; id: string } }>;

export interface ChatFileRouteDeps {
  chatOf(req: AliasReq, reply: FastifyReply): WebChatEndpoint | undefined;
  signedIn(user: WebChatUser | undefined, reply: FastifyReply): user is WebChatUser;
  /** The chat's `max_attachment_mb` in bytes, read per request (a reload changes it). */
  limitBytesOf(alias: string): number;
  /** How many uploads one user may hold unsent (the error names it). */
  pendingMax: number;
  logger: Logger;
}

/** A served file: opaque bytes or a proven image, never run, never framed, never sniffed into something else. */
const FILE_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'private, no-store',
};

const MIME_MAX = 255;
/** What a refused upload's client may still send (discarded) before its connection is closed. */
export const LINGER_BYTES = 4 * 1024 * 1024;

function discardThenClose(stream: Readable): void {
  if (typeof stream.on !== 'function' || stream.readableEnded || stream.destroyed) return;
  let seen = 0;
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen <= LINGER_BYTES) return;
    stream.off('data', onData);
    stream.destroy();
  };
  stream.on('data', onData);
  stream.resume();
}
/** The only types a file is served as besides octet-stream: the images sniff.ts recognises. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

type ReadResult = { bytes: Buffer } | { tooLarge: true } | { interrupted: true };

/** The body, or tooLarge as soon as it passes `limit` (reading stops there: the rest is never pulled in). */
function readUpTo(body: unknown, limit: number): Promise<ReadResult> {
  const stream = body as Readable | undefined;
  if (!stream || typeof stream.on !== 'function') return Promise.resolve({ bytes: Buffer.alloc(0) });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (r: ReadResult) => {
      if (settled) return;
      settled = true;
      stream.off('data', onData);
      resolve(r);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stream.pause();
        settle({ tooLarge: true });
      } else chunks.push(chunk);
    };
    stream.on('data', onData);
    stream.once('end', () => settle({ bytes: Buffer.concat(chunks, size) }));
    stream.once('error', () => settle({ interrupted: true }));
    stream.once('close', () => settle({ interrupted: true }));
  });
}

function headerOf(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The name the browser gave (percent-encoded UTF-8), or null when it cannot be decoded. */
function nameOf(req: FastifyRequest): string | null {
  const raw = headerOf(req, 'x-file-name');
  if (raw === undefined || raw === '') return 'file';
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/** The browser's type for the file: a hint only (kinds come from the bytes); octet-stream says nothing. */
function mimeOf(req: FastifyRequest): string | undefined {
  const type = (headerOf(req, 'content-type') ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return type && type !== 'application/octet-stream' && type.length <= MIME_MAX ? type : undefined;
}

export function registerChatFileRoutes(app: FastifyInstance, deps: ChatFileRouteDeps): void {
  const { chatOf, signedIn, logger } = deps;
  /**
   * A refusal before the whole body arrived: the answer goes at once, then what is left of the body is discarded
   * (never stored) for at most LINGER_BYTES, so a client still sending can read the answer before the connection
   * is cut (closing with unread bytes resets it, and a client busy writing then loses the answer).
   */
  const refuse = (req: FastifyRequest, reply: FastifyReply, status: number, error: string) => {
    discardThenClose((req.body as Readable | undefined) ?? req.raw);
    return reply.code(status).send({ error });
  };

  // Its own context: the body reaches the handler as the request stream, whatever its type (no JSON parser, no
  // 16 KiB server limit); the handler counts it.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    scope.post('/chat/:alias/uploads', async (req: AliasReq, reply) => {
      const chat = chatOf(req, reply);
      const user = req.webUser;
      if (!chat || !signedIn(user, reply)) return reply;
      const limit = deps.limitBytesOf(chat.alias);
      const tooLarge = uploadTooLarge(formatLimit(limit));
      const name = nameOf(req);
      if (name === null) return refuse(req, reply, 400, BAD_UPLOAD_NAME);
      const declared = Number(headerOf(req, 'content-length'));
      if (declared > limit) return refuse(req, reply, 413, tooLarge);
      const id = await chat.uploads.reserve(user);
      if (!id) return refuse(req, reply, 429, tooManyUploads(deps.pendingMax));
      const body = await readUpTo(req.body, limit);
      if (!('bytes' in body) || body.bytes.byteLength === 0) {
        await chat.uploads.release(user, id);
        if ('tooLarge' in body) {
          logger.info(
            { channel: chat.key, user: user.peerId, limit },
            'web chat upload over the limit refused',
          );
          return refuse(req, reply, 413, tooLarge);
        }
        return refuse(req, reply, 400, 'interrupted' in body ? UPLOAD_INTERRUPTED : EMPTY_UPLOAD);
      }
      const mime = mimeOf(req);
      try {
        const upload = await chat.uploads.store(user, id, {
          name,
          ...(mime ? { mime } : {}),
          bytes: body.bytes,
        });
        return reply.code(201).send(upload);
      } catch (err) {
        // Not stored: the place goes back at once (the error handler answers 500).
        await chat.uploads.release(user, id).catch(() => undefined);
        throw err;
      }
    });
  });

  app.get('/chat/:alias/files/:id', async (req: FileReq, reply) => {
    const chat = chatOf(req, reply);
    const user = req.webUser;
    if (!chat || !signedIn(user, reply)) return reply;
    // Another chat's file, an expired one and an unknown id look the same.
    const file = await chat.file(user, req.params.id);
    if (!file) return reply.code(404).send({ error: FILE_NOT_FOUND });
    return reply
      .headers(FILE_HEADERS)
      .header('content-type', IMAGE_TYPES.has(file.mime) ? file.mime : 'application/octet-stream')
      .header('content-disposition', `attachment; filename="${safeName(file.name)}"`)
      .send(file.bytes);
  });
}
