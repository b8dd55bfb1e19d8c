// An HTTP server that answers each request with the next queued raw reply, written piece by piece: the exact
// bytes of an event stream (split anywhere, gzip-encoded, cut off) that the model fakes' scripts cannot shape.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';

export interface RawReply {
  status?: number;
  statusText?: string;
  headers?: Record<string, string>;
  /** Written one after another, each its own write (and TCP segment, with `gapMs`). */
  pieces: Array<string | Buffer>;
  gapMs?: number;
  /** The whole body gzip-encoded (one piece). */
  gzip?: boolean;
  /** Destroys the connection after the pieces instead of ending the reply. */
  cut?: boolean;
}

export interface RawRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface RawHttpReplies {
  url: string;
  queue(...replies: RawReply[]): void;
  requests: RawRequest[];
  close(): Promise<void>;
}

export async function startRawHttpReplies(): Promise<RawHttpReplies> {
  const replies: RawReply[] = [];
  const requests: RawRequest[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    requests.push({
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    });
    const reply = replies.shift();
    if (reply === undefined) {
      res.writeHead(599, 'no reply queued').end();
      return;
    }
    const headers: Record<string, string> = { 'content-type': 'text/event-stream', ...reply.headers };
    const pieces = reply.gzip
      ? [gzipSync(Buffer.concat(reply.pieces.map((p) => Buffer.from(p))))]
      : reply.pieces;
    if (reply.gzip) headers['content-encoding'] = 'gzip';
    res.writeHead(reply.status ?? 200, reply.statusText, headers);
    res.flushHeaders();
    for (const piece of pieces) {
      if (reply.gapMs) await sleep(reply.gapMs);
      res.write(piece);
    }
    if (reply.cut) {
      if (reply.gapMs) await sleep(reply.gapMs);
      res.socket?.destroy();
    } else res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    queue: (...r) => replies.push(...r),
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
