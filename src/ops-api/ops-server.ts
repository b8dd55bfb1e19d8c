// The ops HTTP API on [gateway] host/port (Fastify): JSON errors for every bad input, bearer auth, pino logs.
import type { AddressInfo } from 'node:net';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  LogController,
} from 'fastify';
import { isLoopbackHost } from '../config/rules.ts';
import { createFailureLimiter } from '../core/failure-limiter.ts';
import { bearerMatches, isAssetPath, isBrowserPath, isOpenPath, pathOf, routePath } from './auth.ts';
import { registerChannelRoutes } from './channel-routes.ts';
import { isForwarded, isLocalHostHeader } from './host-header.ts';
import {
  BAD_PATH,
  bodyTooLarge,
  FOREIGN_HOST,
  FORWARDED_WITHOUT_TOKEN,
  INTERNAL_ERROR,
  INVALID_JSON,
  noRoute,
  tooManyBearerFailures,
  UNAUTHORIZED,
} from './ops-api-messages.ts';
import { type OpsServerDeps, resolveOpsContext } from './ops-context.ts';
import { registerOpsRoutes } from './ops-routes.ts';
import { registerRunEventRoutes } from './run-events-route.ts';

export type { OpsServerDeps } from './ops-context.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request may see /healthz details and /metrics (right bearer, or no protection configured). */
    opsAuthorised: boolean;
  }
}

/** No route takes a real body; a small limit keeps a bad client from holding memory. */
export const BODY_LIMIT_BYTES = 16 * 1024;
/**
 * A client must send its whole request (headers and body) within this, its headers within a third of it: Fastify
 * leaves Node's request timeout off, so a client dribbling a body held its connection for ever. Responses, SSE
 * streams included, are not limited by it.
 */
export const REQUEST_TIMEOUT_MS = 30_000;
/** Session keys (`<kind>.<alias>:<chat>:<thread>`) can exceed find-my-way's default of 100. */
const MAX_PARAM_LENGTH = 512;

export function createOpsServer(deps: OpsServerDeps): FastifyInstance {
  const ctx = resolveOpsContext(deps);
  const logger = deps.logger.child({ component: 'ops-api' });
  const channelPaths = new Set((deps.channelRoutes ?? []).map((r) => r.path));
  const bearerFailures = createFailureLimiter(deps.redis, deps.config.redis.prefix);
  // Typed as Fastify's logger interface so the instance keeps the default FastifyInstance type.
  const loggerInstance: FastifyBaseLogger = logger;
  const proxies = deps.config.gateway.trusted_proxies ?? [];
  const requestTimeout = deps.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const app = Fastify({
    loggerInstance,
    // Only these addresses' X-Forwarded-For/-Proto/-Host count (req.ip, req.protocol, req.host); never `true`.
    trustProxy: proxies.length > 0 ? proxies : false,
    // Our own onResponse line replaces Fastify's per-request lines (which would log the full URL).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    requestTimeout,
    // Node checks the timeouts on this period (default 30 s, i.e. up to 30 s late).
    http: {
      headersTimeout: Math.ceil(requestTimeout / 3),
      connectionsCheckingInterval: Math.min(2000, Math.ceil(requestTimeout / 3)),
    },
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // An undecodable path: the same clear JSON error as every other bad input.
    frameworkErrors: (err, _req, reply) => {
      // Typed per route generic there; it is a plain reply.
      const res = reply as unknown as FastifyReply;
      void res.code(400).send({ error: err.code === 'FST_ERR_BAD_URL' ? BAD_PATH : err.message });
    },
  });

  if (!app.hasRequestDecorator('opsAuthorised')) app.decorateRequest('opsAuthorised', false);

  // An empty JSON body is accepted (POST .../abort with `content-type: application/json` and nothing else).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new Error(INVALID_JSON), { statusCode: 400 }), undefined);
    }
  });

  app.addHook('onRequest', async (req, reply) => {
    // The router refuses these first (frameworkErrors below); kept so no hook ever decides on an undecoded path.
    if (routePath(req.url) === null) return reply.code(400).send({ error: BAD_PATH });
    const open = isOpenPath(req.url);
    if (open && (ctx.apiToken === undefined || ctx.healthDetail === 'public')) {
      req.opsAuthorised = true;
      return;
    }
    // Channel webhooks carry the platform's signature instead, checked by their adapter.
    if (channelPaths.has(pathOf(req.url))) return;
    if (ctx.apiToken === undefined) {
      // A proxy in front makes every request look local (it may even rewrite Host to 127.0.0.1): an open gateway
      // refuses anything that says it was forwarded.
      if (isForwarded(req.headers)) {
        logger.warn(
          { method: req.method, path: pathOf(req.url) },
          'ops api: forwarded request refused (no api_token)',
        );
        return reply.code(421).send({ error: FORWARDED_WITHOUT_TOKEN });
      }
      if (isLocalHostHeader(req.headers.host, deps.config.gateway.host)) return;
      logger.warn(
        { method: req.method, path: pathOf(req.url), host: req.headers.host },
        'ops api: foreign Host refused',
      );
      return reply.code(421).send({ error: FOREIGN_HOST });
    }
    // Browser pages use the session cookie (src/web/auth.ts); static assets are open.
    if (isBrowserPath(req.url) || isAssetPath(req.url)) return;
    const authorization = req.headers.authorization;
    if (authorization !== undefined) {
      // A blocked address is refused even with the right token: no oracle while guessing. A wrong token is counted
      // (atomically, so parallel guesses count too) before it is answered.
      const counter = [`bearer-addr:${req.ip}`];
      const right = bearerMatches(authorization, ctx.apiToken);
      const wait = right ? await bearerFailures.blockedFor(counter) : await bearerFailures.reserve(counter);
      if (wait > 0) {
        logger.warn(
          { method: req.method, path: pathOf(req.url), ip: req.ip },
          'ops api: bearer rate limited',
        );
        return reply
          .code(429)
          .header('retry-after', String(wait))
          .send({ error: tooManyBearerFailures(wait) });
      }
      if (right) {
        req.opsAuthorised = true;
        return;
      }
    }
    // /healthz answers its status alone to anyone (load balancers); the route leaves the details out.
    if (pathOf(req.url) === '/healthz') return;
    logger.warn({ method: req.method, path: pathOf(req.url), ip: req.ip }, 'ops api: unauthorized request');
    return reply.code(401).header('www-authenticate', 'Bearer').send({ error: UNAUTHORIZED });
  });

  // Last line of defence: every response body (JSON already serialised, or text) loses known secret values,
  // whatever a task record, a health probe error or a metric label carried. The redactor also matches a
  // secret's JSON-escaped form.
  app.addHook('onSend', async (_req, _reply, payload) =>
    typeof payload === 'string' ? ctx.redact(payload) : payload,
  );

  app.addHook('onResponse', async (req, reply) => {
    logger.debug(
      {
        method: req.method,
        path: pathOf(req.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'ops api request',
    );
  });

  app.setNotFoundHandler((req, reply) => {
    void reply.code(404).send({ error: noRoute(req.method, pathOf(req.url)) });
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const status = err.statusCode !== undefined && err.statusCode >= 400 ? err.statusCode : 500;
    if (status >= 500) {
      logger.error(
        { err: ctx.redact(err.message), method: req.method, path: pathOf(req.url) },
        'ops api error',
      );
      deps.metrics.countError('http');
      return reply.code(500).send({ error: INTERNAL_ERROR });
    }
    const message = err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? bodyTooLarge(BODY_LIMIT_BYTES) : err.message;
    return reply.code(status).send({ error: message });
  });

  app.addHook('onClose', async () => {
    await deps.queues.close();
    await ctx.live.subscriber.close();
  });

  registerOpsRoutes(app, ctx);
  registerRunEventRoutes(app, ctx);
  registerChannelRoutes(app, deps.channelRoutes ?? []);
  deps.web?.(app, ctx);
  return app;
}

export interface OpsServerHandle {
  /** e.g. `http://127.0.0.1:8080` (the real port when [gateway] port is 0). */
  url: string;
  close(): Promise<void>;
}

/** Listens on `[gateway] host`/`port`; refuses a non-loopback host without a token even if the loader let it by. */
export async function startOpsServer(deps: OpsServerDeps): Promise<OpsServerHandle> {
  const { host, port, api_token } = deps.config.gateway;
  if (!isLoopbackHost(host) && (api_token === undefined || api_token.trim() === '')) {
    throw new Error(
      `ops API not started: gateway.api_token is required when gateway.host (${host}) is not loopback`,
    );
  }
  const app = createOpsServer(deps);
  await app.listen({ host, port });
  const addr = app.server.address() as AddressInfo;
  const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const url = `http://${shownHost}:${addr.port}`;
  deps.logger.info(
    { url, auth: deps.config.gateway.api_token ? 'bearer' : 'open (loopback)' },
    'ops api listening',
  );
  return { url, close: () => app.close() };
}
