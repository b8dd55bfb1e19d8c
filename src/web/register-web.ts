// Everything the browser face adds to the gateway's HTTP server; the gateway role hands registerWeb to the ops
// server (OpsServerDeps.web), which calls it once.
// Each feature adds its own line here (auth first: its onRequest hook guards every browser path).
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { WebChatEndpoint } from '../channel-host/web-chat.ts';
import { channelOf } from '../config/lookup.ts';
import type { BatonConfig } from '../config/types.ts';
import type { Logger } from '../core/logger.ts';
import { DEFAULT_MAX_ATTACHMENT_MB, MIB } from '../media/attachment.ts';
import type { LiveFeeds } from '../ops-api/ops-context.ts';
import { keySpaceOf } from '../queue/names.ts';
import { registerAssets } from './assets-route.ts';
import { registerWebAuth } from './auth.ts';
import { registerChatRoutes } from './chat-routes.ts';
import { createOpsPagesDeps, type OpsPagesWiring } from './ops/ops-pages-deps.ts';
import { registerOpsPages } from './ops/register-ops-pages.ts';
import { type AbortSession, registerSessionPages } from './sessions/register-session-pages.ts';

export interface WebDeps {
  /** How often an open stream rechecks its session (default 15 s). */
  sessionRecheckMs?: number;
  config: BatonConfig;
  redis: Redis;
  logger: Logger;
  /** The started web chat adapters of this gateway (`[channels.web.<alias>]`). */
  webChats?: WebChatEndpoint[] | undefined;
  /** Config path, reloadable config and the delegation_policy editor for the operator pages. */
  opsPages?: OpsPagesWiring;
  /** The abort POST /api/sessions/:id/abort uses (the dashboard's Abort button). */
  abortSession: AbortSession;
  /** The server's live feeds and secret redactor (its OpsContext): the pages' pushes use them. */
  live: LiveFeeds;
  redact: (text: string) => string;
}

export function registerWeb(app: FastifyInstance, deps: WebDeps): void {
  registerWebAuth(app, { ...deps, currentConfig: deps.opsPages?.currentConfig ?? (() => deps.config) });
  registerAssets(app);
  const currentConfig = deps.opsPages?.currentConfig ?? (() => deps.config);
  registerChatRoutes(
    app,
    deps.webChats ?? [],
    deps.logger.child({ component: 'web-chat' }),
    (alias) =>
      (channelOf(currentConfig(), `web.${alias}`)?.max_attachment_mb ?? DEFAULT_MAX_ATTACHMENT_MB) * MIB,
  );
  registerOpsPages(app, createOpsPagesDeps({ ...deps, wiring: deps.opsPages ?? {} }));
  registerSessionPages(app, {
    config: currentConfig,
    redis: deps.redis,
    space: keySpaceOf(deps.config.redis),
    abortSession: deps.abortSession,
    logger: deps.logger,
    live: deps.live,
    redact: deps.redact,
  });
}
