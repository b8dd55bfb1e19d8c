// Browser auth against real Fastify and real Redis: the silent local session, /login with api_token, CSRF and
// cross-site refusals, cookie flags, and an unreadable session record treated as no session.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createAbortBus } from '../../../src/fleet/abort-bus.ts';
import { createOpsDeps } from '../../../src/ops-api/ops-deps.ts';
import { createOpsServer } from '../../../src/ops-api/ops-server.ts';
import {
  CROSS_SITE,
  CSRF_MISSING,
  LOGIN_FAILED,
  NOT_SIGNED_IN,
  SIGN_OUT,
} from '../../../src/web/auth-messages.ts';
import { LOGIN_FAILURES_ALLOWED } from '../../../src/web/login-routes.ts';
import { registerWeb } from '../../../src/web/register-web.ts';
import { webSessionKey } from '../../../src/web/session-store.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { configFromToml, type TomlValue, tomlKeys } from '../../helpers/test-config.ts';

const TOKEN = 'tok-web-7c1e93a04b';
const redis = testRedis();
const subscriber = testRedis();
const prefixes: string[] = [];
const apps: FastifyInstance[] = [];

function server(gateway: Record<string, TomlValue> = {}) {
  const prefix = uniquePrefix('web-auth');
  prefixes.push(prefix);
  const config = configFromToml(`[gateway]\n${tomlKeys(gateway)}`, {
    redisPrefix: prefix,
    dataDir: '/tmp/baton-test',
  });
  const logger = createSilentLogger();
  const abortBus = createAbortBus(redis, subscriber, prefix, logger);
  const app = createOpsServer({
    ...createOpsDeps({ config, redis, logger, load: { diagnostics: [], droppedSections: [] }, abortBus }),
    web: registerWeb,
  });
  // A guarded page and a guarded write, to observe what the hook lets through.
  app.get('/ui/whoami', async (req) => ({ user: req.webUser ?? null }));
  app.post('/chat/test/write', async (req) => ({ ok: true, login: req.webUser?.login }));
  app.addHook('onClose', () => abortBus.close());
  apps.push(app);
  return { app, prefix };
}

const cookieOf = (res: LightMyRequestResponse) => String(res.headers['set-cookie'] ?? '').split(';')[0] ?? '';

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});
afterAll(async () => {
  for (const p of prefixes) await deletePrefix(redis, p);
  redis.disconnect();
  subscriber.disconnect();
});

describe('loopback without api_token', () => {
  it('gives the first visit a `local` session with HttpOnly, SameSite=Strict, Path=/ cookie', async () => {
    const { app } = server();
    const first = await app.inject({ url: '/ui/whoami' });
    expect(first.statusCode).toBe(200);
    const setCookie = String(first.headers['set-cookie']);
    expect(setCookie).toMatch(/^baton_session=[A-Za-z0-9_-]{40,}; /);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).not.toContain('Secure');
    const user = first.json().user;
    expect(user).toMatchObject({ login: 'local', peerId: 'web:local' });
    expect(user.chatId).toMatch(/^[a-f0-9]{32}$/);
    // The cookie brings back the same session, and no new cookie is set.
    const again = await app.inject({ url: '/ui/whoami', headers: { cookie: cookieOf(first) } });
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.json().user).toEqual(user);
  });

  it('marks the cookie Secure when the request came over https', async () => {
    const { app } = server();
    // Fastify reports https from the socket; a TLS listener is overkill here, so the trusted-proxy header is
    // not honoured (trustProxy off) and plain http stays non-Secure. The flag logic is covered by the helper.
    const { sessionCookie } = await import('../../../src/web/auth.ts');
    const req = { protocol: 'https' } as Parameters<typeof sessionCookie>[0];
    expect(sessionCookie(req, 'abc')).toContain('; Secure');
    const res = await app.inject({ url: '/ui/whoami', headers: { 'x-forwarded-proto': 'https' } });
    expect(String(res.headers['set-cookie'])).not.toContain('Secure');
  });

  it('treats an unreadable session record as no session (and issues a fresh one)', async () => {
    const { app, prefix } = server();
    // A stored session id (local ones are not stored: web-auth-hardening.test.ts) with a damaged record.
    const id = 'stored-session-id-0123456789abcdef0123456789';
    await redis.set(webSessionKey(prefix, id), JSON.stringify({ login: '<script>', csrf: 'x' }));
    const res = await app.inject({ url: '/ui/whoami', headers: { cookie: `baton_session=${id}` } });
    expect(res.headers['set-cookie']).toBeDefined();
    expect(cookieOf(res)).not.toBe(`baton_session=${id}`);
    expect(res.json().user.login).toBe('local');
  });
});

describe('CSRF and cross-site writes', () => {
  async function signedIn() {
    const { app } = server();
    const first = await app.inject({ url: '/ui/whoami' });
    return { app, cookie: cookieOf(first), csrf: first.json().user.csrf as string };
  }

  it('accepts a same-origin write with the session CSRF header', async () => {
    const { app, cookie, csrf } = await signedIn();
    const res = await app.inject({
      method: 'POST',
      url: '/chat/test/write',
      headers: {
        cookie,
        'x-csrf-token': csrf,
        origin: 'http://localhost:80',
        'sec-fetch-site': 'same-origin',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, login: 'local' });
  });

  it('refuses a write with no or a wrong CSRF header (403, clear JSON error)', async () => {
    const { app, cookie, csrf } = await signedIn();
    for (const headers of [
      { cookie },
      { cookie, 'x-csrf-token': `${csrf}x` },
      { cookie, 'x-csrf-token': '' },
    ]) {
      const res = await app.inject({ method: 'POST', url: '/chat/test/write', headers });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: CSRF_MISSING });
    }
  });

  it('refuses a cross-origin write even with the right CSRF header', async () => {
    const { app, cookie, csrf } = await signedIn();
    const cases = [
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const extra of cases) {
      const res = await app.inject({
        method: 'POST',
        url: '/chat/test/write',
        headers: { cookie, 'x-csrf-token': csrf, ...extra },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: CROSS_SITE });
    }
  });

  it('gives a write without a session 401 JSON (no silent session for writes)', async () => {
    const { app } = server();
    const res = await app.inject({ method: 'POST', url: '/chat/test/write' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: NOT_SIGNED_IN });
  });
});

describe('with api_token', () => {
  const login = (app: FastifyInstance, body: string, ip = '10.0.0.9') =>
    app.inject({
      method: 'POST',
      url: '/login',
      remoteAddress: ip,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: body,
    });

  it('redirects a page without a session to /login (303) and answers fetches 401', async () => {
    const { app } = server({ api_token: TOKEN });
    const page = await app.inject({ url: '/ui/whoami', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe('/login?next=%2Fui%2Fwhoami');
    expect(page.headers['set-cookie']).toBeUndefined();
    const api = await app.inject({ url: '/ui/whoami', headers: { accept: 'application/json' } });
    expect(api.statusCode).toBe(401);
    const sse = await app.inject({ url: '/chat/main/events', headers: { accept: 'text/event-stream' } });
    expect(sse.statusCode).toBe(401);
    const form = await app.inject({ url: '/login' });
    expect(form.statusCode).toBe(200);
    expect(form.headers['content-security-policy']).toContain("script-src 'self'");
    expect(form.body).toContain('name="token"');
    // The bearer API is unchanged.
    expect((await app.inject({ url: '/api/tasks' })).statusCode).toBe(401);
  });

  it('signs in the one operator identity with the token, whatever name is typed (no web users)', async () => {
    const { app } = server({ api_token: TOKEN });
    const res = await login(app, `login=Alice&token=${TOKEN}&next=%2Fui%2Fwhoami`);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/ui/whoami');
    expect(String(res.headers['set-cookie'])).toContain('HttpOnly');
    const me = await app.inject({ url: '/ui/whoami', headers: { cookie: cookieOf(res) } });
    expect(me.json().user).toMatchObject({ login: 'operator', peerId: 'web:operator', operator: true });
    // An open redirect is not followed.
    const evil = await login(app, `login=bob&token=${TOKEN}&next=%2F%2Fevil.example`);
    expect(evil.headers.location).toBe('/');
  });

  it('refuses a wrong token, never echoes the token or the name, rate-limits per IP', async () => {
    const { app } = server({ api_token: TOKEN });
    const wrong = await login(app, `login=${encodeURIComponent('<x>')}&token=nope`, '10.0.0.1');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect(wrong.body).toContain(LOGIN_FAILED);
    expect(wrong.body).not.toContain('<x>');
    for (let i = 1; i < LOGIN_FAILURES_ALLOWED; i++) await login(app, 'login=alice&token=nope', '10.0.0.1');
    const limited = await login(app, `login=alice&token=${TOKEN}`, '10.0.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['set-cookie']).toBeUndefined();
    // Another address is not affected.
    expect((await login(app, `login=alice&token=${TOKEN}`, '10.0.0.3')).statusCode).toBe(303);
  });

  it('logs out: the session is gone', async () => {
    const { app } = server({ api_token: TOKEN });
    const res = await login(app, `login=alice&token=${TOKEN}`);
    const cookie = cookieOf(res);
    const me = await app.inject({ url: '/ui/whoami', headers: { cookie } });
    const csrf = me.json().user.csrf as string;
    const out = await app.inject({
      method: 'POST',
      url: '/logout',
      headers: { cookie, 'x-csrf-token': csrf },
    });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
    expect((await app.inject({ url: '/ui/whoami', headers: { cookie } })).statusCode).toBe(401);
    const next = await app.inject({ url: '/', headers: { cookie, accept: 'text/html' } });
    expect(next.statusCode).toBe(303);
    expect(next.headers.location).toBe('/login?next=%2F');
  });
});

describe('the header Sign out button', () => {
  const BUTTON = `<button type="button" class="sign-out" id="sign-out">${SIGN_OUT}</button>`;
  const SCRIPT = '<script type="module" src="/assets/header.js"></script>';

  it('is in the header of a user who signed in with a login, with its script', async () => {
    const { app } = server({ api_token: TOKEN });
    const res = await app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `login=alice&token=${TOKEN}`,
    });
    for (const url of ['/', '/ui/tasks']) {
      const page = await app.inject({ url, headers: { cookie: cookieOf(res), accept: 'text/html' } });
      expect(page.statusCode).toBe(200);
      expect(page.body).toMatch(new RegExp(`<header class="top">.*${BUTTON}</header>`, 's'));
      expect(page.body).toContain(SCRIPT);
    }
    const asset = await app.inject({ url: '/assets/header.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toContain("'/logout'");
    // The login page has nobody to sign out.
    expect((await app.inject({ url: '/login' })).body).not.toContain('sign-out');
  });

  it('is not shown to the silent loopback `local` user', async () => {
    const { app } = server();
    const page = await app.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('web:local');
    expect(page.body).not.toContain('sign-out');
    expect(page.body).not.toContain('header.js');
  });
});
