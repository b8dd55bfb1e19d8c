// Browser auth hardening (security review #11a, #11c) against real Fastify and real Redis: a token typed into the
// login name field never reaches the logs; cookie-less GETs in local mode do not each store a session.
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/core/logger.ts';
import { createAbortBus } from '../../../src/fleet/abort-bus.ts';
import { createOpsDeps } from '../../../src/ops-api/ops-deps.ts';
import { createOpsServer } from '../../../src/ops-api/ops-server.ts';
import { registerWeb } from '../../../src/web/register-web.ts';
import { capturingLogger } from '../../helpers/providers.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { configFromToml, type TomlValue, tomlKeys } from '../../helpers/test-config.ts';

const TOKEN = 'Tok-Hardening-9F3a71C2e8';
const redis = testRedis();
const subscriber = testRedis();
const prefixes: string[] = [];
const apps: FastifyInstance[] = [];

function server(logger: Logger, gateway: Record<string, TomlValue> = {}) {
  const prefix = uniquePrefix('web-hardening');
  prefixes.push(prefix);
  const config = configFromToml(`[gateway]\n${tomlKeys(gateway)}`, {
    redisPrefix: prefix,
    dataDir: '/tmp/baton-test',
  });
  const abortBus = createAbortBus(redis, subscriber, prefix, logger);
  const app = createOpsServer({
    ...createOpsDeps({ config, redis, logger, load: { diagnostics: [], droppedSections: [] }, abortBus }),
    web: registerWeb,
  });
  app.get('/ui/whoami', async (req) => ({ user: req.webUser ?? null }));
  app.addHook('onClose', () => abortBus.close());
  apps.push(app);
  return { app, prefix };
}

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});
afterAll(async () => {
  for (const p of prefixes) await deletePrefix(redis, p);
  redis.disconnect();
  subscriber.disconnect();
});

describe('failed sign-in logging', () => {
  it('never logs the login name, so a token typed into it cannot leak (cut, lower-cased or whole)', async () => {
    const log = capturingLogger([TOKEN]);
    const { app } = server(log.logger, { api_token: TOKEN });
    for (const name of [TOKEN, ` ${TOKEN.toUpperCase()}`, `${TOKEN}${TOKEN}`]) {
      const res = await app.inject({
        method: 'POST',
        url: '/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ login: name, token: 'wrong-token-value' }).toString(),
      });
      expect(res.statusCode).toBe(401);
    }
    const failures = log.lines.filter((l) => l.includes('web login failed'));
    expect(failures).toHaveLength(3);
    const text = log.lines.join('\n').toLowerCase();
    // Any 12-character run of the token, in any case, would be a leak.
    const lower = TOKEN.toLowerCase();
    for (let i = 0; i + 12 <= lower.length; i++) expect(text).not.toContain(lower.slice(i, i + 12));
  });
});

describe('local mode sessions', () => {
  it('stores no session per cookie-less GET, and the issued cookie still signs in and writes', async () => {
    const { app, prefix } = server(capturingLogger().logger);
    app.post('/chat/test/write', async (req) => ({ ok: true, chat: req.webUser?.chatId }));
    const cookies = new Set<string>();
    for (let i = 0; i < 100; i++) {
      const res = await app.inject({ url: '/ui/whoami' });
      expect(res.statusCode).toBe(200);
      cookies.add(String(res.headers['set-cookie']).split(';')[0] ?? '');
    }
    expect(cookies.size).toBe(100); // still one chat per browser
    const sessionKeys = await redis.keys(`${prefix}:web:session:*`);
    expect(sessionKeys.length).toBeLessThanOrEqual(1);
    const cookie = [...cookies][0] ?? '';
    const me = await app.inject({ url: '/ui/whoami', headers: { cookie } });
    expect(me.headers['set-cookie']).toBeUndefined();
    const user = me.json().user as { login: string; chatId: string; csrf: string };
    expect(user.login).toBe('local');
    const write = await app.inject({
      method: 'POST',
      url: '/chat/test/write',
      headers: { cookie, 'x-csrf-token': user.csrf },
    });
    expect(write.json()).toEqual({ ok: true, chat: user.chatId });
    // A forged cookie of the same shape is no session: a new one is issued instead.
    const forged = `baton_session=${'A'.repeat(64)}`;
    const other = await app.inject({ url: '/ui/whoami', headers: { cookie: forged } });
    expect(other.headers['set-cookie']).toBeDefined();
    expect(other.json().user.chatId).not.toBe(user.chatId);
  });
});
