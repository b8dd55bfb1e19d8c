// Per-user web sign-in against real Fastify and Redis (issue 21 item 1): each user signs in with their own secret,
// the api_token no longer names anyone once users exist, a removed user's session ends, and failed sign-ins are
// limited per address and per login, atomically (a parallel burst gets no more tries than a sequence).
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { BatonConfig } from '../../../src/config/types.ts';
import { FAILURES_ALLOWED } from '../../../src/core/failure-limiter.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createAbortBus } from '../../../src/fleet/abort-bus.ts';
import { createOpsDeps } from '../../../src/ops-api/ops-deps.ts';
import { createOpsServer } from '../../../src/ops-api/ops-server.ts';
import { LOGIN_FAILURES_PER_USER } from '../../../src/web/login-routes.ts';
import { registerWeb } from '../../../src/web/register-web.ts';
import { HASHING_AT_ONCE, HASHING_QUEUE } from '../../../src/web/users/hash-gate.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { configFromToml } from '../../helpers/test-config.ts';
import { TEST_WEB_SECRET, webUsersToml } from '../../helpers/web-users.ts';

const TOKEN = 'tok-users-3b7d0c95e1';
const redis = testRedis();
const subscriber = testRedis();
const prefixes: string[] = [];
const apps: FastifyInstance[] = [];

function server(users: string) {
  const prefix = uniquePrefix('web-users');
  prefixes.push(prefix);
  const load = (u: string) =>
    configFromToml(`[gateway]\napi_token = "${TOKEN}"\n${u}`, {
      redisPrefix: prefix,
      dataDir: '/tmp/baton-test',
    });
  const state = { config: load(users) };
  const logger = createSilentLogger();
  const abortBus = createAbortBus(redis, subscriber, prefix, logger);
  const app = createOpsServer({
    ...createOpsDeps({
      config: state.config,
      redis,
      logger,
      load: { diagnostics: [], droppedSections: [] },
      abortBus,
    }),
    web: (srv, ctx) => registerWeb(srv, { ...ctx, opsPages: { currentConfig: () => state.config } }),
  });
  app.get('/ui/whoami', async (req) => ({ user: req.webUser ?? null }));
  app.addHook('onClose', () => abortBus.close());
  apps.push(app);
  const reload = (u: string) => {
    state.config = load(u) as BatonConfig;
  };
  return { app, reload };
}

const login = (app: FastifyInstance, fields: Record<string, string>, ip = '10.1.0.1') =>
  app.inject({
    method: 'POST',
    url: '/login',
    remoteAddress: ip,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
const cookieOf = (res: LightMyRequestResponse) => String(res.headers['set-cookie'] ?? '').split(';')[0] ?? '';
const whoami = async (app: FastifyInstance, cookie: string) =>
  (await app.inject({ url: '/ui/whoami', headers: { cookie } })).json().user;

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});
afterAll(async () => {
  for (const p of prefixes) await deletePrefix(redis, p);
  redis.disconnect();
  subscriber.disconnect();
});

describe('with [gateway.web_users]', () => {
  const USERS = webUsersToml(['alice', 'bob'], ['alice']);

  it("signs each user in with their own secret, never with the token or another's name", async () => {
    const { app } = server(USERS);
    const form = await app.inject({ url: '/login' });
    expect(form.body).toContain('name="login"');
    const alice = await login(app, { login: 'Alice', token: TEST_WEB_SECRET });
    expect(alice.statusCode).toBe(303);
    expect(await whoami(app, cookieOf(alice))).toMatchObject({
      login: 'alice',
      peerId: 'web:alice',
      operator: true,
    });
    const bob = await login(app, { login: 'bob', token: TEST_WEB_SECRET });
    expect(await whoami(app, cookieOf(bob))).toMatchObject({ login: 'bob', operator: false });
    // The shared token names no one now: not the approver, not the operator identity.
    for (const name of ['alice', 'operator', 'carol']) {
      const res = await login(app, { login: name, token: TOKEN }, '10.1.0.2');
      expect(res.statusCode).toBe(401);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect((await login(app, { login: 'alice', token: `${TEST_WEB_SECRET}x` }, '10.1.0.3')).statusCode).toBe(
      401,
    );
  });

  it('ends the session of a user removed from the config, at the next request', async () => {
    const { app, reload } = server(USERS);
    const bob = cookieOf(await login(app, { login: 'bob', token: TEST_WEB_SECRET }));
    expect(await whoami(app, bob)).toMatchObject({ login: 'bob' });
    reload(webUsersToml(['alice'], ['alice']));
    const res = await app.inject({ url: '/ui/whoami', headers: { cookie: bob } });
    expect(res.statusCode).toBe(401);
  });

  it('limits failures per login across addresses, leaving other users alone', async () => {
    const { app } = server(USERS);
    for (let i = 0; i < LOGIN_FAILURES_PER_USER; i++)
      expect((await login(app, { login: 'alice', token: 'guess' }, `10.2.${i}.1`)).statusCode).toBe(401);
    const limited = await login(app, { login: 'alice', token: TEST_WEB_SECRET }, '10.3.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['set-cookie']).toBeUndefined();
    expect((await login(app, { login: 'bob', token: TEST_WEB_SECRET }, '10.3.0.1')).statusCode).toBe(303);
  });

  it('counts a parallel burst of guesses from one address atomically: no more than the limit are tried', async () => {
    const { app } = server(USERS);
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) => login(app, { login: 'bob', token: `guess-${i}` }, '10.4.0.1')),
    );
    const codes = burst.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(FAILURES_ALLOWED);
    expect(codes.filter((c) => c === 429)).toHaveLength(40 - FAILURES_ALLOWED);
  });
});

describe('sign-ins from many addresses at once', () => {
  it('hash at most HASHING_AT_ONCE at a time with HASHING_QUEUE waiting; the rest are refused as busy', async () => {
    const { app } = server(webUsersToml(['alice']));
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) => login(app, { login: `user-${i}`, token: 'guess' }, `10.6.${i}.1`)),
    );
    const codes = burst.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401).length).toBeLessThanOrEqual(HASHING_AT_ONCE + HASHING_QUEUE);
    expect(codes.filter((c) => c === 503).length).toBeGreaterThanOrEqual(
      40 - HASHING_AT_ONCE - HASHING_QUEUE,
    );
    expect(burst.find((r) => r.statusCode === 503)?.headers['retry-after']).toBe('1');
    // A busy refusal is not a failed try: alice's own counter holds only what was checked.
    expect((await login(app, { login: 'alice', token: TEST_WEB_SECRET }, '10.7.0.1')).statusCode).toBe(303);
  });
});

describe('the ops API bearer', () => {
  it('counts a parallel burst of wrong tokens atomically', async () => {
    const { app } = server('');
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        app.inject({
          url: '/api/tasks',
          remoteAddress: '10.5.0.1',
          headers: { authorization: `Bearer guess-${i}` },
        }),
      ),
    );
    const codes = burst.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(FAILURES_ALLOWED);
    expect(codes.filter((c) => c === 429)).toHaveLength(40 - FAILURES_ALLOWED);
    // Many right-token calls at once are not limited by one another.
    const right = await Promise.all(
      Array.from({ length: 20 }, () =>
        app.inject({
          url: '/api/tasks',
          remoteAddress: '10.5.0.2',
          headers: { authorization: `Bearer ${TOKEN}` },
        }),
      ),
    );
    expect(right.every((r) => r.statusCode === 200)).toBe(true);
  });
});
