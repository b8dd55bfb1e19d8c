// The sessions pages on their own Fastify server for tests, behind a test-only stand-in for the web auth hook:
// it sets `req.webUser` and, like the real hook, refuses a write without the session's CSRF header.
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import type { Redis } from 'ioredis';
import type { BatonConfig } from '../../src/config/types.ts';
import { createSilentLogger } from '../../src/core/logger.ts';
import type { AbortSession } from '../../src/fleet/session-abort.ts';
import { createLiveSubscriber } from '../../src/live/live-subscriber.ts';
import { createRunEventFeed } from '../../src/live/run-event-feed.ts';
import { registerAssets } from '../../src/web/assets-route.ts';
import { registerSessionPages } from '../../src/web/sessions/register-session-pages.ts';
import { spaceOf } from './key-space.ts';
import { REDIS_URL } from './redis.ts';

export const TEST_WEB_USER = {
  login: 'alice',
  peerId: 'web:alice',
  sessionId: 'test-session',
  chatId: 'alice',
  csrf: 'test-csrf-token',
  local: false,
  operator: true,
};

export interface DashboardServer {
  url: string;
  app: ReturnType<typeof Fastify>;
  close(): Promise<void>;
}

export async function startDashboard(o: {
  redis: Redis;
  prefix: string;
  abortSession: AbortSession;
  /** null: nobody signed in. */
  user?: typeof TEST_WEB_USER | null;
  /** Peer groups that decide what a non-operator user sees (default: none). */
  config?: () => Pick<BatonConfig, 'peer_groups'>;
}): Promise<DashboardServer> {
  const app = Fastify();
  const user = o.user === undefined ? TEST_WEB_USER : o.user;
  app.addHook('onRequest', async (req, reply) => {
    if (!user) return;
    if (req.method !== 'GET' && req.headers['x-csrf-token'] !== user.csrf)
      return reply.code(403).send({ error: 'csrf' });
    req.webUser = user;
  });
  registerAssets(app);
  const logger = createSilentLogger();
  const subscriber = createLiveSubscriber({ redisTarget: { url: REDIS_URL }, logger });
  const space = spaceOf(o.prefix);
  const runEvents = createRunEventFeed({ redis: o.redis, subscriber, space, logger });
  registerSessionPages(app, {
    config: o.config ?? (() => ({ peer_groups: {} })),
    redis: o.redis,
    space,
    abortSession: o.abortSession,
    logger,
    live: { subscriber, runEvents },
    redact: (text) => text,
  });
  app.addHook('onClose', () => subscriber.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, app, close: () => app.close() };
}
