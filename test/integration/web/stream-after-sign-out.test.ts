// An open dashboard stream ends when its session does (issue 21 item 4: a stream opened before sign-out kept
// pushing pages to a browser that was signed out, or whose user was removed), over real HTTP and Redis.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatonConfig } from '../../../src/config/types.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createAbortBus } from '../../../src/fleet/abort-bus.ts';
import { createOpsDeps } from '../../../src/ops-api/ops-deps.ts';
import { createOpsServer } from '../../../src/ops-api/ops-server.ts';
import { registerWeb } from '../../../src/web/register-web.ts';
import { createSessionStore } from '../../../src/web/session-store.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { configFromToml } from '../../helpers/test-config.ts';
import { webUsersToml } from '../../helpers/web-users.ts';

const prefix = uniquePrefix('stream-sign-out');
const redis = testRedis();
const subscriber = testRedis();
const logger = createSilentLogger();
const load = (users: string) =>
  configFromToml(`[gateway]\napi_token = "tok-stream-sign-out-1"\n${users}`, {
    redisPrefix: prefix,
    dataDir: '/tmp/baton-test',
  });
const state: { config: BatonConfig } = { config: load(webUsersToml(['alice', 'bob'])) };
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  const abortBus = createAbortBus(redis, subscriber, prefix, logger);
  app = createOpsServer({
    ...createOpsDeps({
      config: state.config,
      redis,
      logger,
      load: { diagnostics: [], droppedSections: [] },
      abortBus,
    }),
    web: (srv, ctx) =>
      registerWeb(srv, { ...ctx, sessionRecheckMs: 100, opsPages: { currentConfig: () => state.config } }),
  });
  app.addHook('onClose', () => abortBus.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app.close();
  await deletePrefix(redis, prefix);
  redis.disconnect();
  subscriber.disconnect();
});

/** Opens the stream and resolves when the server ends it (or after `ms`: 'open'). */
async function streamEnds(cookie: string, ms: number): Promise<'ended' | 'open'> {
  const ctrl = new AbortController();
  const res = await fetch(`${base}/ui/tasks/stream`, {
    headers: { cookie, accept: 'text/event-stream' },
    signal: ctrl.signal,
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const timer = setTimeout(() => ctrl.abort(), ms);
  try {
    for (;;) if ((await reader.read()).done) return 'ended';
  } catch {
    return 'open';
  } finally {
    clearTimeout(timer);
  }
}

describe('dashboard streams and the session', () => {
  it('stay open while the session stands, and end once it is signed out elsewhere', async () => {
    const sessions = createSessionStore(redis, prefix, logger);
    const s = await sessions.create('alice', 'user');
    expect(await streamEnds(`baton_session=${s.sessionId}`, 600)).toBe('open');
    const ending = streamEnds(`baton_session=${s.sessionId}`, 3000);
    await new Promise((r) => setTimeout(r, 200));
    await sessions.delete(s.sessionId); // what POST /logout on any gateway does
    expect(await ending).toBe('ended');
  });

  it('end once the user is removed from the config', async () => {
    const s = await createSessionStore(redis, prefix, logger).create('bob', 'user');
    const ending = streamEnds(`baton_session=${s.sessionId}`, 3000);
    await new Promise((r) => setTimeout(r, 200));
    state.config = load(webUsersToml(['alice']));
    expect(await ending).toBe('ended');
  });
});
