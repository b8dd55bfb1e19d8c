// Walks the route table (src/web/route-access.ts, the README's "Who may use what"): every route the server serves
// is in it, the README shows it, and each route answers each kind of caller as its row says (issue 21 item 2).
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createDelegateTasks } from '../../../src/delegation/delegate-tasks.ts';
import { createAbortBus } from '../../../src/fleet/abort-bus.ts';
import { createOpsDeps } from '../../../src/ops-api/ops-deps.ts';
import { createOpsServer } from '../../../src/ops-api/ops-server.ts';
import { sessionIndexKey, sessionIndexMember } from '../../../src/session/session-index.ts';
import { registerWeb } from '../../../src/web/register-web.ts';
import {
  type Access,
  ROUTE_ACCESS,
  type RouteAccess,
  routeAccessMarkdown,
} from '../../../src/web/route-access.ts';
import { createSessionStore, type StoredSession } from '../../../src/web/session-store.ts';
import { transcriptUrl } from '../../../src/web/sessions/session-url.ts';
import { spaceOf } from '../../helpers/key-space.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { silentRunningTask } from '../../helpers/task-fixtures.ts';
import { loadTestConfig } from '../../helpers/test-config.ts';
import { TEST_WEB_SECRET, TEST_WEB_SECRET_HASH, webUsersToml } from '../../helpers/web-users.ts';

const TOKEN = 'tok-route-access-5e81c2';
const prefix = uniquePrefix('route-access');
const redis = testRedis();
const subscriber = testRedis();
const logger = createSilentLogger();
let app: FastifyInstance;
const who: Record<'carol' | 'bob' | 'alice', StoredSession> = {} as never;

// bob is named for `writer` by a web peer group; carol for nothing; alice is an operator.
const TOML = `
[gateway]
api_token = "${TOKEN}"
[providers.models.custom.fake]
uri = "http://127.0.0.1:9"
model = "fake"
[risk_profiles.default]
[agents.main]
model_provider = "custom.fake"
risk_profile = "default"
[agents.writer]
model_provider = "custom.fake"
risk_profile = "default"
[peer_groups.writers]
channel = "web"
agents = ["writer"]
external_peers = ["web:bob"]
${webUsersToml(['alice', 'bob', 'carol'], ['alice'])}`;

const MAIN_TASK = '3a6c4c6e-8a0e-4c51-9d5e-1a2b3c4d5e71';
const WRITER_TASK = '4a6c4c6e-8a0e-4c51-9d5e-1a2b3c4d5e72';
/** A fixture of `main` (bob may not act for it) and one of `writer` (he may). */
const PARAMS: Record<'main' | 'writer', Record<string, string>> = {
  main: { agent: 'main', session: 'telegram.x:1:', id: MAIN_TASK, profile: 'default', alias: 'main' },
  writer: { agent: 'writer', session: 'telegram.x:2:', id: WRITER_TASK, profile: 'default', alias: 'main' },
};
/** Routes whose allowed answer is an endless SSE stream: only their refusals are checked here. */
const SSE_ONLY = new Set(['/api/runs/:id/events', '/api/sessions/:id/tree/events', '/chat/:alias/events']);

beforeAll(async () => {
  const { config, load } = loadTestConfig(TOML, { redisPrefix: prefix, dataDir: '/tmp/baton-test' });
  const abortBus = createAbortBus(redis, subscriber, prefix, logger);
  app = createOpsServer({
    ...createOpsDeps({ config, redis, logger, load, abortBus }),
    web: (srv, ctx) =>
      registerWeb(srv, {
        ...ctx,
        opsPages: { configPath: '/etc/baton.toml', applyDelegationPolicyMode: async () => ({ ok: true }) },
      }),
  });
  app.addHook('onClose', () => abortBus.close());
  const sessions = createSessionStore(redis, prefix, logger);
  for (const name of ['carol', 'bob', 'alice'] as const) who[name] = await sessions.create(name, 'user');
  const now = Date.now();
  await redis.zadd(
    sessionIndexKey(spaceOf(prefix), PARAMS.main.session!),
    now,
    sessionIndexMember('main', PARAMS.main.session!),
  );
  await redis.zadd(
    sessionIndexKey(spaceOf(prefix), PARAMS.writer.session!),
    now,
    sessionIndexMember('writer', PARAMS.writer.session!),
  );
  const tasks = createDelegateTasks(redis, prefix);
  await tasks.admit(silentRunningTask(MAIN_TASK, { agent: 'main', chain: [] }));
  await tasks.admit(silentRunningTask(WRITER_TASK, { agent: 'writer', chain: [] }));
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await deletePrefix(redis, prefix);
  redis.disconnect();
  subscriber.disconnect();
});

type Caller = 'anonymous' | 'carol' | 'bob' | 'alice' | 'bearer';

function call(route: RouteAccess, caller: Caller, fixture: 'main' | 'writer') {
  const params = PARAMS[fixture];
  const url = route.path
    .replace('/assets/*', '/assets/ops.js')
    .replace(/:([a-z]+)/g, (_, k: string) => encodeURIComponent(params[k] ?? k));
  const session = caller === 'anonymous' || caller === 'bearer' ? undefined : who[caller];
  if (route.path === '/login' && route.method === 'POST')
    return app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `login=alice&token=${TEST_WEB_SECRET}`,
    });
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...(session ? { cookie: `baton_session=${session.sessionId}`, 'x-csrf-token': session.csrf } : {}),
    ...(caller === 'bearer' ? { authorization: `Bearer ${TOKEN}` } : {}),
  };
  const body = route.path.endsWith('delegation-policy') ? { mode: 'allow' } : {};
  return app.inject({
    method: route.method,
    url,
    headers,
    ...(route.method === 'POST' ? { payload: body } : {}),
  });
}

/** Who gets through, per access kind (for `agent`: on which fixture). */
function allowed(access: Access, caller: Caller, fixture: 'main' | 'writer'): boolean {
  switch (access) {
    case 'anyone':
      return true;
    case 'signed-in':
      return caller !== 'anonymous' && caller !== 'bearer';
    case 'agent':
      return caller === 'alice' || (caller === 'bob' && fixture === 'writer');
    case 'operator':
      return caller === 'alice';
    case 'bearer':
      return caller === 'bearer';
    case 'platform':
      return false;
  }
}

const REFUSED = [401, 403, 404];

/** `METHOD /path` of every route in Fastify's printed route tree (each line's segment joins its parents'). */
function servedRoutes(tree: string): string[] {
  const stack: string[] = [];
  const out: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^(.*?)── (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = Math.floor(m[1]!.length / 4);
    stack.length = depth;
    stack.push(m[2]!);
    const path = stack.join('');
    for (const method of (m[3] ?? '').split(', ').filter((v) => v && v !== 'HEAD'))
      out.push(`${method} ${path}`);
  }
  return [...new Set(out)];
}

describe('the route table', () => {
  it('lists every route the server serves, and the README shows it', () => {
    const served = servedRoutes(app.printRoutes({ commonPrefix: false })).map((r) =>
      r.replace(/ \/assets\/.*/, ' /assets/*'),
    );
    const listed = new Set(ROUTE_ACCESS.map((r) => `${r.method} ${r.path}`));
    expect(served.filter((r) => !listed.has(r))).toEqual([]);
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    for (const row of routeAccessMarkdown()) expect(readme).toContain(row);
  });

  for (const route of ROUTE_ACCESS.filter((r) => r.access !== 'platform')) {
    it(`${route.method} ${route.path}: ${route.access}`, async () => {
      for (const caller of ['anonymous', 'carol', 'bob', 'alice', 'bearer'] as const) {
        for (const fixture of ['main', 'writer'] as const) {
          const ok = allowed(route.access, caller, fixture);
          if (ok && SSE_ONLY.has(route.path)) continue;
          const res = await call(route, caller, fixture);
          // Signing out ends the caller's session: the next calls get a new one.
          if (route.path === '/logout' && caller !== 'anonymous' && caller !== 'bearer')
            who[caller] = await createSessionStore(redis, prefix, logger).create(caller, 'user');
          const what = `${caller} on ${fixture}: ${res.statusCode} ${res.body.slice(0, 120)}`;
          // A refusal of someone else's session or task is a 404 (existence not confirmed); elsewhere a 404 is
          // the route's own answer (no running turn, unknown chat).
          const refusals = route.access === 'agent' ? REFUSED : [401, 403];
          if (ok) expect(refusals, what).not.toContain(res.statusCode);
          else expect(REFUSED, what).toContain(res.statusCode);
        }
      }
    });
  }

  it('refuses every browser write without the CSRF header, or from another site, even to an operator', async () => {
    const writes = ROUTE_ACCESS.filter(
      (r) => r.method === 'POST' && r.access !== 'bearer' && r.access !== 'platform',
    );
    expect(writes.length).toBeGreaterThan(5);
    for (const route of writes.filter((r) => r.path !== '/login')) {
      const url = route.path.replace(/:([a-z]+)/g, (_, k: string) =>
        encodeURIComponent(PARAMS.writer[k] ?? k),
      );
      const cookie = `baton_session=${who.alice.sessionId}`;
      const noCsrf = await app.inject({ method: 'POST', url, headers: { cookie }, payload: {} });
      expect(noCsrf.statusCode, route.path).toBe(403);
      const crossSite = await app.inject({
        method: 'POST',
        url,
        headers: { cookie, 'x-csrf-token': who.alice.csrf, origin: 'https://evil.example' },
        payload: {},
      });
      expect(crossSite.statusCode, route.path).toBe(403);
    }
    // The sign-in form is a write too: another site cannot sign a browser into its own account.
    const login = await app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
      payload: `login=alice&token=${TEST_WEB_SECRET}`,
    });
    expect(login.statusCode).toBe(403);
  });

  it("never shows a web user's secret hash on the config page", async () => {
    const res = await app.inject({
      url: '/ui/config',
      headers: { cookie: `baton_session=${who.alice.sessionId}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('web_users');
    expect(res.body).not.toContain(TEST_WEB_SECRET_HASH.split('$').at(-1));
  });

  it("shows a user only their agents' sessions and tasks in the lists", async () => {
    const list = async (url: string, s: StoredSession) =>
      (
        await app.inject({
          url,
          headers: { cookie: `baton_session=${s.sessionId}`, accept: 'application/json' },
        })
      ).body;
    const mainUrl = transcriptUrl('main', PARAMS.main.session!);
    const writerUrl = transcriptUrl('writer', PARAMS.writer.session!);
    expect(await list('/', who.bob)).not.toContain(mainUrl);
    expect(await list('/', who.bob)).toContain(writerUrl);
    expect(await list('/', who.alice)).toContain(mainUrl);
    expect(await list('/', who.carol)).not.toContain(writerUrl);
    expect(await list('/ui/tasks/fragment', who.bob)).not.toContain(MAIN_TASK);
    expect(await list('/ui/tasks/fragment', who.bob)).toContain(WRITER_TASK);
    expect(await list('/ui/tasks/fragment', who.alice)).toContain(MAIN_TASK);
    expect(await list('/ui/tasks/fragment', who.carol)).not.toContain(WRITER_TASK);
  });
});
