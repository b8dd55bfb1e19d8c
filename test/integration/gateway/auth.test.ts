// Bearer auth of the ops API ([gateway] api_token): /api needs the token, /healthz answers its status to anyone.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOREIGN_HOST } from '../../../src/ops-api/ops-api-messages.ts';
import { uniquePrefix } from '../../helpers/redis.ts';
import { jsonOf, type OpsHarness, startOpsHarness } from './ops-harness.ts';

const TOKEN = 'tok-3f9a1c27e4b84d0c';
let h: OpsHarness;

beforeAll(async () => {
  const prefix = uniquePrefix('gateway-auth');
  h = await startOpsHarness({
    prefix,
    toml: `[gateway]\nhost = "127.0.0.1"\napi_token = "${TOKEN}"`,
  });
});
afterAll(() => h.close());

describe('bearer token', () => {
  it('refuses /api without a token, with a wrong one, or with another scheme; never echoes the token', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-token' },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Basic ${TOKEN}` },
      { authorization: TOKEN },
    ];
    for (const headers of attempts) {
      const res = await h.get('/api/tasks', headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ error: 'unauthorized' });
      expect(text).not.toContain(TOKEN);
    }
    const abort = await h.post('/api/sessions/s/abort');
    expect(abort.status).toBe(401);
  });

  it('serves /api with the right token (scheme is case-insensitive)', async () => {
    const res = await h.get('/api/tasks', { authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toEqual({ tasks: [] });
    expect((await h.get('/api/tasks', { authorization: `bearer ${TOKEN}` })).status).toBe(200);
    const abort = await h.post('/api/sessions/s/abort', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(abort.status).toBe(404);
  });

  it('keeps /healthz open (its status alone without the token), and fails closed on unknown paths', async () => {
    const health = await h.get('/healthz');
    expect(health.status).toBe(200);
    expect(await jsonOf(health)).toEqual({ status: 'ok' });
    expect((await h.get('/metrics', { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    expect((await h.get('/dashboard')).status).toBe(401);
    expect((await h.get('/healthz/../api/tasks')).status).toBe(401);
  });
});

describe('without a token on loopback', () => {
  let open: OpsHarness;
  beforeAll(async () => {
    open = await startOpsHarness({ prefix: uniquePrefix('gateway-open') });
  });
  afterAll(() => open.close());

  it('serves /api to anyone who can reach the loopback address', async () => {
    expect((await open.get('/api/tasks')).status).toBe(200);
  });

  it('answers only requests addressed to a loopback name: a rebound foreign name gets 421', async () => {
    const port = new URL(open.url).port;
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      `app.localhost:${port}`,
    ]) {
      expect((await withHost(open.url, '/api/tasks', host)).status).toBe(200);
    }
    for (const host of [`evil.example:${port}`, `127.0.0.1.evil.example:${port}`, 'user@127.0.0.1']) {
      const res = await withHost(open.url, '/api/tasks', host);
      expect(res.status).toBe(421);
      expect(JSON.parse(res.body)).toEqual({ error: FOREIGN_HOST });
    }
    // Health and metrics stay open to a proxy or a probe that names the gateway its own way.
    expect((await withHost(open.url, '/healthz', `evil.example:${port}`)).status).toBe(200);
  });
});

/** A GET with a chosen Host header (fetch does not let a caller set Host). */
function withHost(base: string, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
