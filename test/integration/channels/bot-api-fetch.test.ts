// grammy's HTTP client (bot-api-fetch.ts) against a real HTTP server: what grammy sends arrives whole, and every
// way a call can end reaches grammy as it would through node-fetch.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { Api, GrammyError, HttpError, InputFile } from 'grammy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botApiFetch } from '../../../channels/telegram/bot-api-fetch.ts';

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

let server: Server;
let root: string;
const received: Received[] = [];
let answer: (req: Received, res: ServerResponse) => void = () => {};

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      received.push(r);
      answer(r, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const api = (opts: { timeoutSeconds?: number } = {}) =>
  new Api('123:TOKEN', { apiRoot: root, fetch: botApiFetch as unknown as typeof fetch, ...opts });
const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

describe('botApiFetch under grammy', () => {
  it('posts the JSON call and returns the result', async () => {
    answer = (_r, res) =>
      json(res, 200, {
        ok: true,
        result: { message_id: 7, date: 1, chat: { id: 5, type: 'private' }, text: 'héllo' },
      });
    const sent = await api().sendMessage(5, 'héllo ✓');
    expect(sent.message_id).toBe(7);
    const r = received.at(-1) as Received;
    expect(r.path).toBe('/bot123:TOKEN/sendMessage');
    expect(r.headers['content-type']).toBe('application/json');
    expect(Number(r.headers['content-length'])).toBe(r.body.length);
    expect(JSON.parse(r.body.toString('utf8'))).toEqual({ chat_id: 5, text: 'héllo ✓' });
  });

  it('reads a compressed answer', async () => {
    answer = (_r, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
        .end(gzipSync(JSON.stringify({ ok: true, result: true })));
    expect(await api().deleteWebhook()).toBe(true);
  });

  it("turns an error answer into grammy's GrammyError, with its code and parameters", async () => {
    answer = (_r, res) =>
      json(res, 429, {
        ok: false,
        error_code: 429,
        description: 'Too Many Requests: retry after 3',
        parameters: { retry_after: 3 },
      });
    const err = await api()
      .sendMessage(5, 'x')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GrammyError);
    expect((err as GrammyError).error_code).toBe(429);
    expect((err as GrammyError).parameters.retry_after).toBe(3);
  });

  it('streams a multipart upload whole', async () => {
    answer = (_r, res) =>
      json(res, 200, { ok: true, result: { message_id: 8, date: 1, chat: { id: 5, type: 'private' } } });
    const bytes = Buffer.alloc(300_000, 7);
    await api().sendDocument(
      5,
      new InputFile(Readable.from([bytes.subarray(0, 100_000), bytes.subarray(100_000)]), 'a.bin'),
    );
    const r = received.at(-1) as Received;
    expect(r.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(r.body.includes(Buffer.from(';filename=a.bin\r\n'))).toBe(true);
    expect(r.body.includes(bytes)).toBe(true); // both chunks, in order
  });

  it('gives up a call that outlives its timeout, and a call whose server vanished, as HttpErrors', async () => {
    answer = () => {}; // never answers
    const slow = await api({ timeoutSeconds: 0.2 })
      .getMe()
      .catch((e: unknown) => e);
    expect(slow).toBeInstanceOf(HttpError);
    answer = (_r, res) => res.socket?.destroy();
    const dropped = await api()
      .getMe()
      .catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(HttpError);
  });

  it('stops a long poll at once when its signal aborts', async () => {
    answer = () => {}; // a long poll with no update
    const controller = new AbortController();
    const poll = api()
      .getUpdates({ timeout: 30 }, controller.signal as never) // grammy types its own AbortSignal polyfill
      .catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    const t0 = performance.now();
    controller.abort();
    expect(await poll).toBeInstanceOf(HttpError);
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('refuses a URL that is neither http nor https', async () => {
    await expect(botApiFetch('ftp://example.org/bot/x')).rejects.toThrow(
      'unsupported Bot API URL scheme ftp:',
    );
  });
});
