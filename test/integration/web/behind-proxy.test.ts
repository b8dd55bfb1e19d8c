// Behind a TLS-terminating proxy (issue 21 item 3), against real Fastify and Redis: `[gateway] trusted_proxies`
// makes the forwarded client address, scheme and host count (Secure cookie, rate limit per real client, Origin
// against the forwarded host), only from the proxy; a gateway without api_token refuses forwarded requests.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FAILURES_ALLOWED } from '../../../src/core/failure-limiter.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createAbortBus } from '../../../src/fleet/abort-bus.ts';
import { FORWARDED_WITHOUT_TOKEN } from '../../../src/ops-api/ops-api-messages.ts';
import { createOpsDeps } from '../../../src/ops-api/ops-deps.ts';
import { createOpsServer } from '../../../src/ops-api/ops-server.ts';
import { CROSS_SITE } from '../../../src/web/auth-messages.ts';
import { registerWeb } from '../../../src/web/register-web.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { configFromToml } from '../../helpers/test-config.ts';
import { TEST_WEB_SECRET, webUsersToml } from '../../helpers/web-users.ts';

const TOKEN = 'tok-proxy-8c2f17d0a3';
const PROXY = '127.0.0.1';
const redis = testRedis();
const subscriber = testRedis();
const prefixes: string[] = [];
const apps: FastifyInstance[] = [];

function server(gatewayToml: string) {
  const prefix = uniquePrefix('behind-proxy');
  prefixes.push(prefix);
  const config = configFromToml(`[gateway]\n${gatewayToml}`, {
    redisPrefix: prefix,
    dataDir: '/tmp/baton-test',
  });
  const logger = createSilentLogger();
  const abortBus = createAbortBus(redis, subscriber, prefix, logger);
  const app = createOpsServer({
    ...createOpsDeps({ config, redis, logger, load: { diagnostics: [], droppedSections: [] }, abortBus }),
    web: registerWeb,
  });
  app.get('/ui/whoami', async (req) => ({ user: req.webUser ?? null }));
  app.post('/chat/test/write', async () => ({ ok: true }));
  app.addHook('onClose', () => abortBus.close());
  apps.push(app);
  return app;
}

const PROXIED = `api_token = "${TOKEN}"\ntrusted_proxies = ["${PROXY}"]\n${webUsersToml(['alice'])}`;
const viaProxy = (client: string, extra: Record<string, string> = {}) => ({
  host: '127.0.0.1:8080',
  'x-forwarded-for': client,
  'x-forwarded-proto': 'https',
  'x-forwarded-host': 'baton.example.com',
  ...extra,
});
const login = (app: FastifyInstance, secret: string, headers: Record<string, string>, from = PROXY) =>
  app.inject({
    method: 'POST',
    url: '/login',
    remoteAddress: from,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams({ login: 'alice', token: secret }).toString(),
  });
const cookieOf = (res: LightMyRequestResponse) => String(res.headers['set-cookie'] ?? '').split(';')[0] ?? '';

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});
afterAll(async () => {
  for (const p of prefixes) await deletePrefix(redis, p);
  redis.disconnect();
  subscriber.disconnect();
});

describe('with trusted_proxies', () => {
  it('marks the cookie Secure when the browser spoke https to the proxy', async () => {
    const app = server(PROXIED);
    const res = await login(app, TEST_WEB_SECRET, viaProxy('203.0.113.7'));
    expect(res.statusCode).toBe(303);
    expect(String(res.headers['set-cookie'])).toContain('; Secure');
  });

  it('limits failed sign-ins per real client, not per proxy; an untrusted peer cannot pick its address', async () => {
    const app = server(PROXIED);
    for (let i = 0; i < FAILURES_ALLOWED; i++)
      expect((await login(app, 'wrong', viaProxy('203.0.113.1'))).statusCode).toBe(401);
    expect((await login(app, TEST_WEB_SECRET, viaProxy('203.0.113.1'))).statusCode).toBe(429);
    expect((await login(app, TEST_WEB_SECRET, viaProxy('203.0.113.2'))).statusCode).toBe(303);
    // Not from the proxy: X-Forwarded-For is ignored, so rotating it does not reset the count.
    for (let i = 0; i < FAILURES_ALLOWED; i++)
      await login(app, 'wrong', viaProxy(`198.51.100.${i}`), '192.0.2.9');
    expect((await login(app, TEST_WEB_SECRET, viaProxy('198.51.100.99'), '192.0.2.9')).statusCode).toBe(429);
  });

  it('checks Origin against the forwarded host', async () => {
    const app = server(PROXIED);
    const signedIn = await login(app, TEST_WEB_SECRET, viaProxy('203.0.113.3'));
    const cookie = cookieOf(signedIn);
    const me = await app.inject({
      url: '/ui/whoami',
      remoteAddress: PROXY,
      headers: { ...viaProxy('203.0.113.3'), cookie },
    });
    const csrf = me.json().user.csrf as string;
    const write = (origin: string) =>
      app.inject({
        method: 'POST',
        url: '/chat/test/write',
        remoteAddress: PROXY,
        headers: { ...viaProxy('203.0.113.3'), cookie, 'x-csrf-token': csrf, origin },
      });
    expect((await write('https://baton.example.com')).statusCode).toBe(200);
    const evil = await write('https://evil.example');
    expect(evil.statusCode).toBe(403);
    expect(evil.json()).toEqual({ error: CROSS_SITE });
  });
});

describe('without api_token', () => {
  it('refuses a forwarded request even when the proxy rewrote Host to loopback (no open dashboard)', async () => {
    const app = server('');
    for (const url of ['/', '/ui/tasks', '/api/tasks']) {
      const res = await app.inject({
        url,
        headers: { host: '127.0.0.1:8080', 'x-forwarded-for': '203.0.113.5' },
      });
      expect(res.statusCode).toBe(421);
      expect(res.json()).toEqual({ error: FORWARDED_WITHOUT_TOKEN });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    // The browser on this machine still gets its silent local session.
    expect((await app.inject({ url: '/ui/whoami', headers: { host: '127.0.0.1:8080' } })).statusCode).toBe(
      200,
    );
  });
});
