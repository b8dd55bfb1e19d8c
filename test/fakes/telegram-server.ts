// Fake Telegram Bot API server for grammy (client.apiRoot = server.url): held getUpdates long polls with
// offset confirmation, sendMessage / editMessageText / answerCallbackQuery / sendChatAction, setWebhook /
// deleteWebhook (getUpdates is refused with 409 while a webhook is set, as Telegram does), every call recorded;
// files (telegram-files.ts): getFile, the /file/bot<token>/<path> download, multipart sendPhoto/Document/Voice.
//
// Usage:
//   const tg = await startFakeTelegram({ token: 'T' });
//   new Bot('T', { client: { apiRoot: tg.url } })
//   tg.injectMessage({ chat: 42, from: 7, text: 'hi' });
//   await tg.waitForCall((c) => c.method === 'sendMessage');
//   tg.failNext('sendMessage', { status: 429, retryAfter: 1 });
//   await tg.close();
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { boundaryOf, type MultipartPart, parseMultipart } from './multipart.ts';
import { createTelegramFiles, type TelegramFiles, UPLOAD_FIELDS } from './telegram-files.ts';
import { createTelegramState, type TelegramState } from './telegram-state.ts';
import { apiError, type ErrorReply, type OkReply, ok } from './telegram-wire.ts';

export interface TelegramCall {
  method: string;
  token: string;
  params: Record<string, unknown>;
  at: number;
}

/** How the next matching call fails: an HTTP error reply, or the socket destroyed without a reply. */
export type TelegramFailure = { status: number; retryAfter?: number; description?: string } | { drop: true };

export interface FakeTelegram extends TelegramState {
  /** The apiRoot for grammy (no trailing slash). */
  readonly url: string;
  readonly calls: TelegramCall[];
  /** Files users sent (addFile), their downloads, and the files the bot uploaded. */
  readonly files: TelegramFiles;
  /** Calls `listener` with every call as it is received, before it is answered (benchmarks time replies). */
  onCall(listener: (c: TelegramCall) => void): void;
  /** Makes the next `times` calls of `method` ('*' for any) fail this way. */
  failNext(method: string, failure: TelegramFailure, times?: number): void;
  /** The most getUpdates long polls ever held at once (more than 1: two consumers polled one bot at once). */
  maxConcurrentPolls(): number;
  /** Destroys every open connection (held long polls included), as a network cut would; returns how many. */
  dropConnections(): number;
  /** Resolves with the first recorded call (past or future) that matches. */
  waitForCall(match: (c: TelegramCall) => boolean, timeoutMs?: number, what?: string): Promise<TelegramCall>;
  /** Resolves once `count` calls match (past and future), with them in order. */
  waitForCalls(
    match: (c: TelegramCall) => boolean,
    count: number,
    timeoutMs?: number,
    what?: string,
  ): Promise<TelegramCall[]>;
  close(): Promise<void>;
}

interface HeldPoll {
  res: ServerResponse;
  offset: number;
  limit: number;
  timer: NodeJS.Timeout;
}

export async function startFakeTelegram(
  opts: { token?: string; botUsername?: string } = {},
): Promise<FakeTelegram> {
  const state = createTelegramState({ botUsername: opts.botUsername ?? 'baton_test_bot' });
  const calls: TelegramCall[] = [];
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const failures: { method: string; failure: TelegramFailure }[] = [];
  const held = new Set<HeldPoll>();
  const sockets = new Set<Socket>();
  let maxHeld = 0;
  const files = createTelegramFiles();

  const send = (res: ServerResponse, reply: OkReply | ErrorReply) => {
    if (res.writableEnded || res.destroyed) return;
    const status = reply.ok ? 200 : reply.error_code;
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
  };

  const answerPolls = () => {
    for (const poll of held) {
      const updates = state.pending(poll.offset, poll.limit);
      if (!updates.length) continue;
      held.delete(poll);
      clearTimeout(poll.timer);
      send(poll.res, ok(updates));
    }
  };
  state.onUpdate(answerPolls);

  function getUpdates(params: Record<string, unknown>, res: ServerResponse): void {
    const offset = Number(params.offset ?? 0);
    const limit = Math.min(Math.max(Number(params.limit ?? 100), 1), 100);
    const timeout = Number(params.timeout ?? 0);
    state.confirm(offset);
    const updates = state.pending(offset, limit);
    if (updates.length || timeout <= 0) {
      send(res, ok(updates));
      return;
    }
    const poll: HeldPoll = {
      res,
      offset,
      limit,
      timer: setTimeout(() => {
        held.delete(poll);
        send(res, ok([]));
      }, timeout * 1000),
    };
    held.add(poll);
    maxHeld = Math.max(maxHeld, held.size);
    res.on('close', () => {
      clearTimeout(poll.timer);
      held.delete(poll);
    });
  }

  /** A multipart request's body, for the upload methods. */
  type Multipart = { parts: MultipartPart[]; raw: Buffer; contentType: string };

  function upload(method: string, body: Multipart | undefined, res: ServerResponse) {
    const field = UPLOAD_FIELDS[method] as string;
    if (!body) return send(res, apiError(400, `Bad Request: there is no ${field} in the request`));
    const result = files.upload(method, body.parts, body.raw, body.contentType);
    if ('error' in result) return send(res, result.error);
    const { upload: u } = result;
    const sent = {
      file_id: `sent-${files.uploads.length}`,
      file_unique_id: `S${files.uploads.length}`,
      file_size: u.bytes.byteLength,
    };
    const file =
      field === 'photo'
        ? { photo: [{ ...sent, width: 1, height: 1 }] }
        : { [field]: { ...sent, ...(u.filename ? { file_name: u.filename } : {}) } };
    send(res, ok(state.sentFile(u.chatId, u.thread, file, u.caption)));
  }

  function handle(
    method: string,
    token: string,
    params: Record<string, unknown>,
    res: ServerResponse,
    body?: Multipart,
  ) {
    const call = { method, token, params, at: Date.now() };
    calls.push(call);
    events.emit('call', call);
    if (opts.token !== undefined && token !== opts.token) return send(res, apiError(401, 'Unauthorized'));
    const at = failures.findIndex((f) => f.method === method || f.method === '*');
    if (at >= 0) {
      const failure = (failures.splice(at, 1)[0] as { failure: TelegramFailure }).failure;
      if ('drop' in failure) return void res.socket?.destroy();
      const text =
        failure.description ?? (failure.status === 429 ? 'Too Many Requests' : 'Internal Server Error');
      return send(res, apiError(failure.status, text, failure.retryAfter));
    }
    if (method === 'getUpdates' && state.webhook) {
      // Telegram's answer while a webhook is set.
      return send(
        res,
        apiError(
          409,
          "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
        ),
      );
    }
    if (method === 'getUpdates') return getUpdates(params, res);
    if (method === 'getFile') return send(res, files.getFile(params));
    if (method in UPLOAD_FIELDS) return upload(method, body, res);
    send(res, state.call(method, params));
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const download = /^\/file\/bot([^/]+)\/(.+)$/.exec(req.url ?? '');
    if (req.method === 'GET' && download) {
      const token = decodeURIComponent(download[1] as string);
      const path = (download[2] as string).split('/').map(decodeURIComponent).join('/');
      return files.serve(opts.token === undefined || token === opts.token, path, res);
    }
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (!match) return send(res, apiError(404, 'Not Found'));
      const raw = Buffer.concat(chunks);
      const contentType = req.headers['content-type'] ?? '';
      const boundary = boundaryOf(contentType);
      let params: Record<string, unknown> = {};
      let body: Multipart | undefined;
      try {
        if (boundary) {
          const parts = parseMultipart(raw, boundary);
          body = { parts, raw, contentType };
          for (const p of parts)
            params[p.name] = p.filename === undefined ? p.data.toString('utf8') : `(file ${p.filename})`;
        } else if (raw.length) params = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      } catch {
        return send(
          res,
          apiError(400, boundary ? 'Bad Request: bad multipart body' : 'Bad Request: body is not JSON'),
        );
      }
      handle(match[2] as string, decodeURIComponent(match[1] as string), params, res, body);
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  function waitForCalls(
    match: (c: TelegramCall) => boolean,
    count: number,
    timeoutMs = 20_000,
    what = `${count} matching calls`,
  ): Promise<TelegramCall[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = calls.filter(match);
        if (found.length < count) return;
        events.off('call', check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        events.off('call', check);
        const seen = calls.map((c) => c.method).join(', ');
        reject(new Error(`fake telegram: timed out waiting for ${what}; calls: ${seen}`));
      }, timeoutMs);
      events.on('call', check);
      check();
    });
  }

  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    calls,
    files,
    onCall: (listener: (c: TelegramCall) => void) => void events.on('call', listener),
    failNext(method: string, failure: TelegramFailure, times = 1) {
      for (let i = 0; i < times; i++) failures.push({ method, failure });
    },
    maxConcurrentPolls: () => maxHeld,
    dropConnections() {
      const cut = sockets.size;
      for (const s of sockets) s.destroy();
      return cut;
    },
    waitForCall: async (match: (c: TelegramCall) => boolean, timeoutMs?: number, what?: string) =>
      (await waitForCalls(match, 1, timeoutMs, what))[0] as TelegramCall,
    waitForCalls,
    async close() {
      for (const poll of held) {
        clearTimeout(poll.timer);
        poll.res.destroy();
      }
      held.clear();
      files.close();
      // grammy keeps connections alive: without this, close() waits for them.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
