// GET/POST /login (name + api_token, rate limited per IP in Redis) and POST /logout.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { BatonConfig } from '../config/types.ts';
import { createFailureLimiter, FAILURE_WINDOW_SECS, FAILURES_ALLOWED } from '../core/failure-limiter.ts';
import type { Logger } from '../core/logger.ts';
import { sameSecret } from '../core/secret-compare.ts';
import { sessionCookie } from './auth.ts';
import {
  LOGIN_BAD_NAME,
  LOGIN_FAILED,
  LOGIN_INTRO,
  LOGIN_NAME_LABEL,
  LOGIN_RATE_LIMITED,
  LOGIN_SUBMIT,
  LOGIN_TITLE,
  LOGIN_TOKEN_LABEL,
} from './auth-messages.ts';
import { html } from './html.ts';
import { PAGE_HEADERS, page } from './page.ts';
import { LOGIN_RE, type SessionStore } from './session-store.ts';

/** Failed sign-ins allowed per IP per window (the limiter the ops API's bearer check uses too). */
export const LOGIN_FAILURES_ALLOWED = FAILURES_ALLOWED;
export const LOGIN_FAILURE_WINDOW_SECS = FAILURE_WINDOW_SECS;

export interface LoginDeps {
  config: BatonConfig;
  redis: Redis;
  logger: Logger;
  sessions: SessionStore;
  local: boolean;
}

/** Only a local path (no `//host`, no scheme): an open redirect would make the login page a phishing aid. */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])[^\s\\]*$/.test(next) ? next : '/';
}

function loginPage(next: string, error?: string) {
  return page({
    title: LOGIN_TITLE,
    user: null,
    body: html`<section class="login">
<h1>${LOGIN_TITLE}</h1>
<p>${LOGIN_INTRO}</p>
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="/login">
<input type="hidden" name="next" value="${next}">
<label>${LOGIN_NAME_LABEL} <input name="login" autocomplete="username" required maxlength="32"></label>
<label>${LOGIN_TOKEN_LABEL} <input name="token" type="password" autocomplete="current-password" required></label>
<button type="submit">${LOGIN_SUBMIT}</button>
</form>
</section>`,
  });
}

const field = (body: unknown, name: string): string | undefined => {
  const v = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof v === 'string' ? v : undefined;
};

export function registerLoginRoutes(app: FastifyInstance, deps: LoginDeps): void {
  const { config, redis, logger, sessions } = deps;
  const limiter = createFailureLimiter(redis, (ip) => `${config.redis.prefix}:web:login-fail:${ip}`);
  const send = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(body);

  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );
  }

  app.get('/login', async (req: FastifyRequest<{ Querystring: { next?: string } }>, reply) => {
    const next = safeNext(req.query.next);
    if (req.webUser) return reply.redirect(next, 303);
    return send(reply, 200, loginPage(next));
  });

  app.post('/login', async (req, reply) => {
    const next = safeNext(field(req.body, 'next'));
    const token = config.gateway.api_token;
    if (deps.local || token === undefined || token.trim() === '') {
      // No token to check: the session comes silently with the first page.
      return reply.redirect(next, 303);
    }
    if ((await limiter.blockedFor(req.ip)) > 0) {
      logger.warn({ ip: req.ip }, 'web login refused: too many failures');
      return send(reply, 429, loginPage(next, LOGIN_RATE_LIMITED));
    }
    const rawLogin = field(req.body, 'login') ?? '';
    const login = rawLogin.trim().toLowerCase();
    const tokenOk = sameSecret(field(req.body, 'token'), token);
    if (!LOGIN_RE.test(login) || !tokenOk) {
      await limiter.fail(req.ip);
      // Never the name itself: a token typed into the name field, cut and lower-cased, escapes the redactor.
      logger.warn(
        { ip: req.ip, login_chars: rawLogin.length, reason: tokenOk ? 'bad name' : 'wrong token' },
        'web login failed',
      );
      return send(reply, tokenOk ? 400 : 401, loginPage(next, tokenOk ? LOGIN_BAD_NAME : LOGIN_FAILED));
    }
    // A new id at every sign-in (no session fixation); the one the browser had ends.
    if (req.webUser) await sessions.delete(req.webUser.sessionId);
    const session = await sessions.create(login);
    logger.info({ ip: req.ip, login }, 'web login');
    return reply.header('set-cookie', sessionCookie(req, session.sessionId)).redirect(next, 303);
  });

  // The auth hook already required the session and its CSRF header.
  app.post('/logout', async (req, reply) => {
    if (req.webUser) await sessions.delete(req.webUser.sessionId);
    return reply
      .header('set-cookie', sessionCookie(req, '', 0))
      .code(200)
      .send({ ok: true });
  });
}
