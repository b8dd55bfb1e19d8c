// Routes of the sessions dashboard: `/` (list), `/ui/sessions/<agent>/<session>` (transcript), the running-turn
// poll and the abort. Who is signed in comes from `req.webUser` (the web auth hook, which also checks the CSRF
// header of every write); without it a page answers 401.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { runningTurnsKey } from '../../fleet/running-turns.ts';
import { sessionLastActivity } from '../../session/session-index.ts';
import type { WebUser } from '../auth.ts';
import { html } from '../html.ts';
import { PAGE_HEADERS, type PageUser, page } from '../page.ts';
import * as m from './session-page-messages.ts';
import { pageParam, RUNNING_URL } from './session-url.ts';
import { readSessions, renderSessions } from './sessions-page.ts';
import { readTranscript, renderTranscript } from './transcript-page.ts';

/** The abort behind POST /api/sessions/:id/abort (fleet/session-abort.ts), given with the ops context. */
export type AbortSession = (sessionKey: string) => Promise<{ aborted: boolean }>;

export interface SessionPagesDeps {
  redis: Redis;
  prefix: string;
  abortSession: AbortSession;
}

const webUserOf = (req: FastifyRequest): WebUser | undefined => req.webUser;

const SCRIPTS = ['sessions.js'];

function sendPage(
  reply: FastifyReply,
  status: number,
  title: string,
  user: PageUser | null,
  body: ReturnType<typeof html>,
) {
  return reply
    .code(status)
    .headers(PAGE_HEADERS)
    .type('text/html; charset=utf-8')
    .send(page({ title, user, body, scripts: SCRIPTS, current: '/' }));
}

type Params = { agent: string; session: string };

export function registerSessionPages(app: FastifyInstance, deps: SessionPagesDeps): void {
  const { redis, prefix } = deps;
  const signedIn = (req: FastifyRequest, reply: FastifyReply): WebUser | null => {
    const user = webUserOf(req);
    if (user) return user;
    void sendPage(reply, 401, m.SESSIONS_TITLE, null, html`<p class="error">${m.UNAUTHORIZED}</p>`);
    return null;
  };

  app.get<{ Querystring: { offset?: string } }>('/', async (req, reply) => {
    const user = signedIn(req, reply);
    if (!user) return reply;
    const view = await readSessions(redis, prefix, pageParam(req.query.offset) ?? 0);
    return sendPage(reply, 200, m.SESSIONS_TITLE, user, renderSessions(view));
  });

  app.get(RUNNING_URL, async (req, reply) => {
    if (!webUserOf(req)) return reply.code(401).send({ error: m.UNAUTHORIZED });
    return reply
      .header('cache-control', 'no-store')
      .send({ running: await redis.hkeys(runningTurnsKey(prefix)) });
  });

  app.get<{ Params: Params; Querystring: { before?: string } }>(
    '/ui/sessions/:agent/:session',
    async (req, reply) => {
      const user = signedIn(req, reply);
      if (!user) return reply;
      const { agent, session } = req.params;
      const view = await readTranscript(redis, prefix, agent, session, pageParam(req.query.before));
      // An emptied session (after /new) is still listed: it shows as empty; an unknown one is 404.
      const unknown =
        view.page.total === 0 &&
        !view.running &&
        (await sessionLastActivity(redis, prefix, agent, session)) === null;
      const status = unknown ? 404 : 200;
      const body =
        status === 404
          ? html`<p class="error">${m.NOT_FOUND}</p><p><a href="/">${m.BACK_TO_SESSIONS}</a></p>`
          : renderTranscript(view);
      return sendPage(reply, status, m.transcriptTitle(agent), user, body);
    },
  );

  app.post<{ Params: Params }>('/ui/sessions/:agent/:session/abort', async (req, reply) => {
    if (!webUserOf(req)) return reply.code(401).send({ error: m.UNAUTHORIZED });
    const res = await deps.abortSession(req.params.session);
    return reply.send({ aborted: res.aborted, message: res.aborted ? m.ABORT_SENT : m.ABORT_NOTHING });
  });
}
