// grammy's HTTP client: one keep-alive `http(s).request` per Bot API call, the body read whole. grammy's own
// default in Node is node-fetch (legacy `url.parse`, Headers, Body, PassThrough streams): a `sendMessage` through
// grammy cost 180 µs of CPU with it and 126 µs with this, and a sequential turn makes two calls (README
// "Performance"). grammy only calls `fetch(url, init)` and then `res.json()`; the init is grammy's: a JSON string
// or a multipart stream as the body, its keep-alive agent, and its own AbortSignal (a polyfill, so it is watched
// here).
import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';

interface SignalLike {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export interface BotApiInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Readable;
  signal?: SignalLike;
  agent?: http.Agent;
}

export interface BotApiResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

const httpAgent = new http.Agent({ keepAlive: true });
const httpsAgent = new https.Agent({ keepAlive: true });

const abortError = () => Object.assign(new Error('The Bot API request was aborted'), { name: 'AbortError' });

/** A `fetch` for grammy's `client.fetch`: what grammy uses of the Fetch API, over Node's own HTTP client. */
export async function botApiFetch(url: string, init: BotApiInit = {}): Promise<BotApiResponse> {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  if (!secure && target.protocol !== 'http:')
    throw new Error(`unsupported Bot API URL scheme ${target.protocol}`);
  const { signal, body } = init;
  if (signal?.aborted) throw abortError();
  const headers: Record<string, string | number> = { ...init.headers };
  if (typeof body === 'string') headers['content-length'] = Buffer.byteLength(body);
  const req = (secure ? https : http).request({
    protocol: target.protocol,
    hostname: target.hostname,
    port: target.port,
    path: target.pathname + target.search,
    method: init.method ?? 'GET',
    headers,
    agent: init.agent ?? (secure ? httpsAgent : httpAgent),
  });
  const onAbort = () => req.destroy(abortError());
  signal?.addEventListener('abort', onAbort);
  // Once the call settles, body read or failed, the signal no longer concerns it.
  const release = () => signal?.removeEventListener('abort', onAbort);
  const response = new Promise<http.IncomingMessage>((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', (err) => {
      release();
      reject(err);
    });
  });
  if (body === undefined || typeof body === 'string') req.end(body);
  else {
    body.once('error', (err) => req.destroy(err));
    body.pipe(req);
  }
  const res = await response;
  const whole = readBody(res).finally(release);
  whole.catch(() => {}); // read by text()/json(), or dropped
  const status = res.statusCode ?? 0;
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: res.statusMessage ?? '',
    text: () => whole,
    json: async () => JSON.parse(await whole) as unknown,
  };
}

function readBody(res: http.IncomingMessage): Promise<string> {
  const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : null;
  const source: Readable = decoder ? res.pipe(decoder) : res;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    source.on('data', (c: Buffer) => chunks.push(c));
    source.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    source.once('error', reject);
    if (decoder) res.once('error', reject);
    res.once('aborted', () => reject(abortError()));
    // A destroyed request (an abort mid-body) closes the response without 'end'.
    res.once('close', () => {
      if (!res.complete) reject(abortError());
    });
  });
}
