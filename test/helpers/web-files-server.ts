// A gateway's HTTP server with one web chat (`web.main`) on real Redis, for the file route tests: the real web
// adapter, channel host and attachment intake; the inbox is a list of what was accepted (no worker needed).
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createWebAdapter } from '../../channels/web/web-adapter.ts';
import { createWebChatHub } from '../../channels/web/web-hub.ts';
import { createAttachmentIntake } from '../../src/channel-host/attachment-intake.ts';
import { createChannelHost } from '../../src/channel-host/host.ts';
import type { InboundMessage } from '../../src/channel-host/types.ts';
import type { WebChatEndpoint } from '../../src/channel-host/web-chat.ts';
import { createSilentLogger } from '../../src/core/logger.ts';
import { createAbortBus } from '../../src/fleet/abort-bus.ts';
import { MIB } from '../../src/media/attachment.ts';
import { createBlobStore } from '../../src/media/blob-store.ts';
import { createOpsDeps } from '../../src/ops-api/ops-deps.ts';
import { createOpsServer } from '../../src/ops-api/ops-server.ts';
import { renderChatMarkdown, renderChatPlain } from '../../src/web/markdown.ts';
import { registerWeb } from '../../src/web/register-web.ts';
import { createSessionStore, type StoredSession } from '../../src/web/session-store.ts';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from './redis.ts';
import { loadTestConfig } from './test-config.ts';
import { webUsersToml } from './web-users.ts';

export interface FilesServer {
  url: string;
  prefix: string;
  chat: WebChatEndpoint;
  /** Events the host accepted, as the inbox got them. */
  accepted: InboundMessage[];
  blobs: ReturnType<typeof createBlobStore>;
  session(login: 'alice' | 'bob'): Promise<StoredSession>;
  close(): Promise<void>;
}

export async function startFilesServer(name: string, maxAttachmentMb: number): Promise<FilesServer> {
  const prefix = uniquePrefix(name);
  const redis = testRedis();
  const subscriber = testRedis();
  const logger = createSilentLogger();
  const toml = `
[gateway]
api_token = "tok-${name}-91c3"
[providers.models.custom.fake]
uri = "http://127.0.0.1:9"
model = "fake"
[risk_profiles.default]
[agents.main]
model_provider = "custom.fake"
risk_profile = "default"
[channels.web.main]
enabled = true
max_attachment_mb = ${maxAttachmentMb}
[peer_groups.web]
channel = "web.main"
agents = ["main"]
external_peers = ["web:alice", "web:bob"]
${webUsersToml(['alice', 'bob'])}`;
  const { config, load } = loadTestConfig(toml, { redisPrefix: prefix, dataDir: '/tmp/baton-test' });
  const accepted: InboundMessage[] = [];
  const blobs = createBlobStore(redis);
  const chat = createWebAdapter({
    alias: 'main',
    title: 'Files',
    redisTarget: { url: REDIS_URL },
    prefix,
    hub: createWebChatHub({ redisTarget: { url: REDIS_URL }, prefix, logger }),
    render: { markdown: renderChatMarkdown, plain: renderChatPlain },
    logger,
  });
  const seen = new Set<string>();
  const host = createChannelHost({
    config,
    logger,
    ingest: {
      async accept(_conversation, message) {
        if (seen.has(message.eventId)) return 'duplicate';
        seen.add(message.eventId);
        accepted.push(message);
        return 'first';
      },
      async kick() {},
    },
    attachments: createAttachmentIntake({
      blobs,
      prefix,
      logger,
      adapterOf: () => chat,
      limitBytesOf: () => maxAttachmentMb * MIB,
    }),
  });
  await chat.start(host);
  const abortBus = createAbortBus(redis, subscriber, prefix, logger);
  const app: FastifyInstance = createOpsServer({
    ...createOpsDeps({ config, redis, logger, load, abortBus }),
    web: (srv, ctx) => registerWeb(srv, { ...ctx, webChats: [chat] }),
  });
  app.addHook('onClose', () => abortBus.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  const sessions = createSessionStore(redis, prefix, logger);
  return {
    url: `http://127.0.0.1:${port}`,
    prefix,
    chat,
    accepted,
    blobs,
    session: (login) => sessions.create(login, 'user'),
    async close() {
      await app.close();
      await chat.stop();
      await deletePrefix(redis, prefix);
      redis.disconnect();
      subscriber.disconnect();
    },
  };
}

/** Headers of a signed-in browser write from the page itself. */
export const writeHeaders = (s: StoredSession): Record<string, string> => ({
  cookie: `baton_session=${s.sessionId}`,
  'x-csrf-token': s.csrf,
});
