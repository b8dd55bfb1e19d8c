// Browser auth on the gateway's HTTP server: the `baton_session` cookie (sessions in Redis), the silent local
// session on a loopback bind without api_token, the /login page otherwise, and CSRF + cross-site checks on writes.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { isLoopbackHost } from '../config/rules.ts';
import type { BatonConfig } from '../config/types.ts';
import type { Logger } from '../core/logger.ts';
import { sameSecret } from '../core/secret-compare.ts';
import { isAssetPath, isBrowserPath, pathOf } from '../ops-api/auth.ts';
import { CROSS_SITE, CSRF_MISSING, NOT_SIGNED_IN } from './auth-messages.ts';
import { createLocalSessions } from './local-session.ts';
import { registerLoginRoutes } from './login-routes.ts';
import { createSessionStore, SESSION_TTL_SECS, type StoredSession } from './session-store.ts';
import { signInMode, standing } from './users/web-users.ts';

declare module 'fastify' {
  interface FastifyRequest {
    webUser?: WebUser;
    /** Set with webUser: whether the session still stands (an SSE stream asks again while it stays open). */
    webRecheck?: SessionRecheck;
  }
}

export interface SessionRecheck {
  everyMs: number;
  stillSignedIn(): Promise<boolean>;
}

/** How often an open stream asks whether its session still stands (signed out, expired, user removed). */
export const SESSION_RECHECK_MS = 15_000;

export interface WebUser {
  login: string;
  /** `web:<login>`: the sender id of this person's chat messages (what peer groups name). */
  peerId: string;
  /** Only in the cookie, never rendered. */
  sessionId: string;
  /** Random per browser session, safe to show: the web chat's chat id. */
  chatId: string;
  csrf: string;
  /** The silent loopback user (local mode): nothing to sign out of, the next page would sign it in again. */
  local: boolean;
  /** The local user, the api_token operator, or a web user with `operator = true`: sees all, edits the config. */
  operator: boolean;
}

export interface WebAuthDeps {
  /** Default SESSION_RECHECK_MS (tests shorten it). */
  sessionRecheckMs?: number;
  config: BatonConfig;
  /** The config in effect now (a reload adds or removes users); default: `config`. */
  currentConfig?: () => BatonConfig;
  redis: Redis;
  logger: Logger;
}

export const SESSION_COOKIE = 'baton_session';
/** The login of the one user of a loopback bind without api_token. */
export const LOCAL_LOGIN = 'local';

export { isAssetPath, isBrowserPath, pathOf };

export function webUserOf(s: StoredSession, local: boolean, operator = local): WebUser {
  return {
    login: s.login,
    peerId: `web:${s.login}`,
    sessionId: s.sessionId,
    chatId: s.chatId,
    csrf: s.csrf,
    local,
    operator,
  };
}

export function sessionCookie(req: FastifyRequest, value: string, maxAgeSecs = SESSION_TTL_SECS): string {
  const secure = req.protocol === 'https' ? '; Secure' : '';
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSecs}${secure}`;
}

export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * A write from another site: an Origin that is not this host, or Sec-Fetch-Site other than same-origin/none. The
 * host is `req.host`: behind a trusted proxy (Fastify trustProxy) the X-Forwarded-Host the browser addressed.
 */
export function isCrossSite(req: FastifyRequest): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return true;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  const host = req.host;
  if (!URL.canParse(origin) || !host) return true;
  const from = new URL(origin);
  // Parsed in the Origin's scheme so a default port (`:80`) written in one and not the other still matches.
  const self = `${from.protocol}//${host}`;
  return !URL.canParse(self) || new URL(self).host !== from.host;
}

const isWrite = (method: string) => method !== 'GET' && method !== 'HEAD';

/** A page load (HTML navigation) is redirected to /login; fetch, SSE and writes get 401 JSON. */
function wantsPage(req: FastifyRequest): boolean {
  if (isWrite(req.method)) return false;
  const dest = req.headers['sec-fetch-dest'];
  if (dest !== undefined) return dest === 'document';
  return (req.headers.accept ?? '').includes('text/html');
}

/** True on a loopback bind without api_token or web users: the first visit is silently the `local` user. */
export function isLocalMode(config: BatonConfig): boolean {
  return isLoopbackHost(config.gateway.host) && signInMode(config) === 'open';
}

export function registerWebAuth(app: FastifyInstance, deps: WebAuthDeps): void {
  const { config, redis } = deps;
  const currentConfig = deps.currentConfig ?? (() => config);
  const logger = deps.logger.child({ component: 'web-auth' });
  const sessions = createSessionStore(redis, config.redis.prefix, logger);
  const local = isLocalMode(config);
  const localSessions = local ? createLocalSessions(redis, config.redis.prefix, LOCAL_LOGIN) : undefined;
  if (!app.hasRequestDecorator('webUser')) app.decorateRequest('webUser', undefined);
  if (!app.hasRequestDecorator('webRecheck')) app.decorateRequest('webRecheck', undefined);
  const everyMs = deps.sessionRecheckMs ?? SESSION_RECHECK_MS;
  // A stored session must still be in Redis and still stand under the config in effect; a local one always does.
  const recheckOf = (s: StoredSession): SessionRecheck => ({
    everyMs,
    async stillSignedIn() {
      if (local) return true;
      const again = await sessions.peek(s.sessionId);
      return again !== undefined && standing(currentConfig(), again.login, again.via) !== undefined;
    },
  });

  const refuse = (reply: FastifyReply, status: number, error: string) => reply.code(status).send({ error });

  app.addHook('onRequest', async (req, reply) => {
    if (!isBrowserPath(req.url)) return;
    const write = isWrite(req.method);
    const path = pathOf(req.url);
    if (write && isCrossSite(req)) {
      logger.warn({ method: req.method, path, ip: req.ip }, 'web: cross-site write refused');
      return refuse(reply, 403, CROSS_SITE);
    }
    const cookie = cookieValue(req.headers.cookie, SESSION_COOKIE);
    let session = cookie ? await sessions.get(cookie) : undefined;
    if (!session && cookie && localSessions) session = await localSessions.verify(cookie);
    if (!session && localSessions && !write) {
      session = await localSessions.issue();
      reply.header('set-cookie', sessionCookie(req, session.sessionId));
    }
    // Decided per request from the config in effect: a removed user's session ends at once.
    const stands = session && !local ? standing(currentConfig(), session.login, session.via) : undefined;
    if (session && !local && !stands) session = undefined;
    if (session) {
      req.webUser = webUserOf(session, local, local || stands?.operator === true);
      req.webRecheck = recheckOf(session);
    }
    if (path === '/login') return; // the login routes decide (and a login POST has no session yet)
    if (!session) {
      if (wantsPage(req)) return reply.redirect(`/login?next=${encodeURIComponent(req.url)}`, 303);
      return refuse(reply, 401, NOT_SIGNED_IN);
    }
    if (write && !sameSecret(headerOf(req, 'x-csrf-token'), session.csrf)) {
      logger.warn(
        { method: req.method, path, ip: req.ip, login: session.login },
        'web: write without CSRF token',
      );
      return refuse(reply, 403, CSRF_MISSING);
    }
  });

  registerLoginRoutes(app, { config: currentConfig, redis, logger, sessions, local });
}

function headerOf(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
