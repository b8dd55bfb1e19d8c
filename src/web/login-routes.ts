// GET/POST /login and POST /logout. With `[gateway.web_users]`: a login and that user's own secret; without any, the
// api_token signs in the one operator identity. Failures are limited per client address and per login in Redis.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { BatonConfig } from '../config/types.ts';
import { createFailureLimiter, FAILURE_WINDOW_SECS, FAILURES_ALLOWED } from '../core/failure-limiter.ts';
import type { Logger } from '../core/logger.ts';
import { sameSecret } from '../core/secret-compare.ts';
import { sessionCookie } from './auth.ts';
import {
  LOGIN_BUSY,
  LOGIN_FAILED,
  LOGIN_INTRO,
  LOGIN_INTRO_TOKEN,
  LOGIN_NAME_LABEL,
  LOGIN_RATE_LIMITED,
  LOGIN_SECRET_LABEL,
  LOGIN_SUBMIT,
  LOGIN_TITLE,
  LOGIN_TOKEN_LABEL,
} from './auth-messages.ts';
import { html } from './html.ts';
import { PAGE_HEADERS, page } from './page.ts';
import { LOGIN_RE, type SessionStore } from './session-store.ts';
import { createHashGate } from './users/hash-gate.ts';
import { verifyWebSecret } from './users/web-secret.ts';
import { OPERATOR_LOGIN, type SignInMode, signInMode, webUserEntry } from './users/web-users.ts';

/** Failed sign-ins allowed per address and per login per window (the limiter the ops API's bearer check uses too). */
export const LOGIN_FAILURES_ALLOWED = FAILURES_ALLOWED;
export const LOGIN_FAILURE_WINDOW_SECS = FAILURE_WINDOW_SECS;
/** Failed sign-ins allowed per login per window, from all addresses together. */
export const LOGIN_FAILURES_PER_USER = 3 * FAILURES_ALLOWED;

export interface LoginDeps {
  /** The config in effect now: a reload that adds a user lets them sign in. */
  config: () => BatonConfig;
  redis: Redis;
  logger: Logger;
  sessions: SessionStore;
  local: boolean;
}

/** Only a local path (no `//host`, no scheme): an open redirect would make the login page a phishing aid. */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])[^\s\\]*$/.test(next) ? next : '/';
}

function loginPage(next: string, mode: SignInMode, error?: string) {
  const nameField =
    mode === 'token'
      ? ''
      : html`<label>${LOGIN_NAME_LABEL} <input name="login" autocomplete="username" required maxlength="32"></label>`;
  return page({
    title: LOGIN_TITLE,
    user: null,
    body: html`<section class="login">
<h1>${LOGIN_TITLE}</h1>
<p>${mode === 'token' ? LOGIN_INTRO_TOKEN : LOGIN_INTRO}</p>
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="/login">
<input type="hidden" name="next" value="${next}">
${nameField}
<label>${mode === 'token' ? LOGIN_TOKEN_LABEL : LOGIN_SECRET_LABEL} <input name="token" type="password" autocomplete="current-password" required></label>
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
  const { redis, logger, sessions } = deps;
  const limiter = createFailureLimiter(redis, deps.config().redis.prefix);
  const hashing = createHashGate();
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
    return send(reply, 200, loginPage(next, signInMode(deps.config())));
  });

  app.post('/login', async (req, reply) => {
    const next = safeNext(field(req.body, 'next'));
    const config = deps.config();
    const mode = signInMode(config);
    // No token to check: the session comes silently with the first page.
    if (deps.local || mode === 'open') return reply.redirect(next, 303);
    const rawLogin = field(req.body, 'login') ?? '';
    const login = mode === 'token' ? OPERATOR_LOGIN : rawLogin.trim().toLowerCase();
    const secret = field(req.body, 'token') ?? '';
    // Per login too, against guessing one user's secret from many addresses; with more room than per address,
    // so a stranger needs more tries to lock a user out. Any well-formed name counts (an unknown one too: the
    // limit must not tell which users exist). Not in token mode: one shared identity would let ten wrong tries
    // anywhere lock the operator out everywhere.
    const perUser = mode === 'users' && LOGIN_RE.test(login);
    const counters = [
      `login-addr:${req.ip}`,
      ...(perUser ? [{ name: `login-user:${login}`, allowed: LOGIN_FAILURES_PER_USER }] : []),
    ];
    const wait = await limiter.reserve(counters);
    if (wait > 0) {
      logger.warn({ ip: req.ip, wait_secs: wait }, 'web login refused: too many failures');
      return send(reply, 429, loginPage(next, mode, LOGIN_RATE_LIMITED));
    }
    const ok =
      mode === 'token'
        ? sameSecret(secret, config.gateway.api_token ?? '')
        : await hashing.run(() => verifyWebSecret(secret, webUserEntry(config, login)?.secret_hash));
    if (ok === undefined) {
      // Not tried: the attempt is given back.
      await limiter.refund(counters);
      logger.warn({ ip: req.ip }, 'web login refused: too many sign-ins being checked');
      return send(reply.header('retry-after', '1'), 503, loginPage(next, mode, LOGIN_BUSY));
    }
    if (!ok) {
      // Never the name itself: a secret typed into the name field, cut and lower-cased, escapes the redactor.
      logger.warn({ ip: req.ip, login_chars: rawLogin.length, mode }, 'web login failed');
      return send(reply, 401, loginPage(next, mode, LOGIN_FAILED));
    }
    await limiter.refund(counters);
    // A new id at every sign-in (no session fixation); the one the browser had ends.
    if (req.webUser) await sessions.delete(req.webUser.sessionId);
    const session = await sessions.create(login, mode === 'token' ? 'token' : 'user');
    logger.info({ ip: req.ip, login, mode }, 'web login');
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
