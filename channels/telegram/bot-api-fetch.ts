// grammy's HTTP client: one keep-alive Node `http(s).request` per Bot API call (src/core/node-http.ts), the body
// read whole. grammy's own default in Node is node-fetch (legacy `url.parse`, Headers, Body, PassThrough
// streams): a `sendMessage` through grammy cost 180 µs of CPU with it and 126 µs with this, and a sequential turn
// makes two calls (README "Performance"). grammy only calls `fetch(url, init)` and then `res.json()`; the init
// is grammy's: a JSON string or a multipart stream as the body, its keep-alive agent, and its own AbortSignal (a
// polyfill, so it is watched here).
import type http from 'node:http';
import type { Readable } from 'node:stream';
import { isHttpUrl, readBodyText, type SignalLike, sendRequest } from '../../src/core/node-http.ts';

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

const abortError = () => Object.assign(new Error('The Bot API request was aborted'), { name: 'AbortError' });

/** A `fetch` for grammy's `client.fetch`: what grammy uses of the Fetch API, over Node's own HTTP client. */
export async function botApiFetch(url: string, init: BotApiInit = {}): Promise<BotApiResponse> {
  const target = new URL(url);
  if (!isHttpUrl(target)) throw new Error(`unsupported Bot API URL scheme ${target.protocol}`);
  if (init.signal?.aborted) throw abortError();
  const request = sendRequest(target, {
    method: init.method ?? 'GET',
    headers: { ...init.headers },
    body: init.body,
    signal: init.signal,
    agent: init.agent,
    abortError,
  });
  const res = await request.response;
  const whole = readBodyText(res).finally(request.release);
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
