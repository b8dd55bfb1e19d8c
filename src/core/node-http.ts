// Node's own HTTP client over keep-alive agents, for the calls on a turn's path (the Bot API, the model API):
// fetch costs a turn about twice the CPU in web streams, Headers and Body objects (README "Performance").
import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';

/** An AbortSignal, or a polyfill of one (grammy brings its own). */
export interface SignalLike {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

// With NODE_USE_ENV_PROXY set, fetch and Node's global agents go through HTTP(S)_PROXY; these agents do as well.
const proxyEnv = process.env.NODE_USE_ENV_PROXY ? process.env : undefined;
const httpAgent = new http.Agent({ keepAlive: true, proxyEnv });
const httpsAgent = new https.Agent({ keepAlive: true, proxyEnv });

export interface NodeRequestInit {
  method: string;
  headers: Record<string, string | number>;
  /** A string gets its content-length; a stream is piped. */
  body?: string | Readable;
  signal?: SignalLike;
  agent?: http.Agent;
  /** The error the request fails with when `signal` aborts. */
  abortError: () => Error;
  /** Fails the request (ETIMEDOUT) when its socket stays silent this long, before or within the body. */
  idleTimeoutMs?: number;
}

export interface NodeRequest {
  /** Settles with the response head, or the request's error (the abort error once `signal` aborted). */
  response: Promise<http.IncomingMessage>;
  /** Stops watching `signal`: call once the body is read or dropped. */
  release(): void;
  destroy(err?: Error): void;
}

/** Whether `url` is one Node's http or https module can request. */
export const isHttpUrl = (url: URL): boolean => url.protocol === 'http:' || url.protocol === 'https:';

/** Sends one request; `url` must be http(s) (isHttpUrl). */
export function sendRequest(url: URL, init: NodeRequestInit): NodeRequest {
  const secure = url.protocol === 'https:';
  const { signal, body } = init;
  const headers = { ...init.headers };
  if (typeof body === 'string') headers['content-length'] = Buffer.byteLength(body);
  const req = (secure ? https : http).request({
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port,
    path: url.pathname + url.search,
    method: init.method,
    headers,
    agent: init.agent ?? (secure ? httpsAgent : httpAgent),
  });
  const onAbort = () => req.destroy(init.abortError());
  const release = () => signal?.removeEventListener('abort', onAbort);
  const response = new Promise<http.IncomingMessage>((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', (err) => {
      release();
      reject(err);
    });
  });
  const idle = init.idleTimeoutMs;
  if (idle !== undefined) {
    req.setTimeout(idle, () => {
      const message = `no data from ${url.host} for ${idle / 1000} s`;
      req.destroy(Object.assign(new Error(message), { code: 'ETIMEDOUT' }));
    });
  }
  if (signal?.aborted) req.destroy(init.abortError());
  else signal?.addEventListener('abort', onAbort);
  if (body === undefined || typeof body === 'string') req.end(body);
  else {
    body.once('error', (err) => req.destroy(err));
    body.pipe(req);
  }
  return { response, release, destroy: (err) => req.destroy(err) };
}

/** The response body with its content-encoding (gzip, deflate, br) undone, as fetch gives it. */
export function decodedBody(res: http.IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : null;
  if (decoder === null) return res;
  res.once('error', (err) => decoder.destroy(err));
  return res.pipe(decoder);
}

/**
 * The decoded body read whole as text. Past `maxBytes` the request is destroyed (`destroy`) and the read fails.
 */
export function readBodyText(
  res: http.IncomingMessage,
  opts: { maxBytes?: number; destroy?: (err: Error) => void } = {},
): Promise<string> {
  const body = decodedBody(res);
  const chunks: Buffer[] = [];
  let size = 0;
  return new Promise((resolve, reject) => {
    body.on('data', (c: Buffer) => {
      size += c.length;
      if (opts.maxBytes === undefined || size <= opts.maxBytes) chunks.push(c);
      else opts.destroy?.(new Error(`the body is over ${opts.maxBytes} bytes`));
    });
    // A destroyed request (an abort mid-body) closes the response before its end.
    watchBody(res, body, () => resolve(Buffer.concat(chunks).toString('utf8')), reject);
  });
}

/**
 * Calls `onEnd` once when the body ends whole, or `onFail` once when it cannot: a read error, or a response
 * closed before its end (a dropped connection, a destroyed request).
 */
export function watchBody(
  res: http.IncomingMessage,
  body: Readable,
  onEnd: () => void,
  onFail: (err: Error) => void,
): void {
  let settled = false;
  const fail = (err: Error): void => {
    if (settled) return;
    settled = true;
    onFail(err);
  };
  body.once('end', () => {
    if (settled) return;
    settled = true;
    onEnd();
  });
  body.once('error', fail);
  if (body !== res) res.once('error', fail);
  res.once('close', () => {
    if (!res.complete)
      fail(Object.assign(new Error('the connection closed before the body ended'), { code: 'ECONNRESET' }));
  });
}
