// Routes of the sessions dashboard: `/` (list), `/ui/sessions/<agent>/<session>` (transcript and live tree), the
// streams that push both pages' live parts, and the abort. Who is signed in comes from `req.webUser` (the web auth
// hook, which also checks the CSRF header of every write); without it a page answers 401.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { BatonConfig } from '../../config/types.ts';
import type { KeySpace } from '../../core/key-layout.ts';
import type { Logger } from '../../core/logger.ts';
import { readSessionTree } from '../../live/session-tree.ts';
import type { LiveFeeds } from '../../ops-api/ops-context.ts';
import { sessionLastActivity } from '../../session/session-index.ts';
import type { WebUser } from '../auth.ts';
import { html } from '../html.ts';
import { createPageStreams } from '../live/page-stream.ts';
import { onDashboardChange } from '../live/page-wakes.ts';
import { PAGE_HEADERS, type PageUser, page } from '../page.ts';
import { maySeeSession } from '../users/web-authz.ts';
import { liveTreeSource } from './live-tree-source.ts';
import * as m from './session-page-messages.ts';
import { pageParam, SESSIONS_STREAM_URL } from './session-url.ts';
import { renderSessions } from './sessions-page.ts';
import { readTranscript, renderTranscript } from './transcript-page.ts';
import { renderSessionTree } from './tree-render.ts';
import { readVisibleSessions } from './visible-sessions.ts';

/** The abort behind POST /api/sessions/:id/abort (fleet/session-abort.ts), given with the ops context. */
export type AbortSession = (sessionKey: string) => Promise<{ aborted: boolean }>;

export interface SessionPagesDeps {
  redis: Redis;
  /** The config in effect now: its peer groups decide which sessions a user may see (web-authz.ts). */
  config: () => Pick<BatonConfig, 'peer_groups'>;
  /** The prefix and partitions ([redis]): sessions are indexed per partition. */
  space: KeySpace;
  abortSession: AbortSession;
  logger: Pick<Logger, 'warn'>;
  live: LiveFeeds;
  /** The server's secret redactor: pushed frames leave without its onSend hook. */
  redact: (text: string) => string;
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
  const { redis, space, logger } = deps;
  const { prefix } = space;
  const streams = createPageStreams(app, deps);
  const treeDeps = { redis, prefix, space, logger, ...deps.live };
  const signedIn = (req: FastifyRequest, reply: FastifyReply): WebUser | null => {
    const user = webUserOf(req);
    if (user) return user;
    void sendPage(reply, 401, m.SESSIONS_TITLE, null, html`<p class="error">${m.UNAUTHORIZED}</p>`);
    return null;
  };

  /** null for an operator (everything), else the filter of what this user may see. */
  const visibleTo = (user: WebUser) =>
    user.operator ? null : (agent: string, key: string) => maySeeSession(deps.config(), user, agent, key);
  /** A session of someone else is answered like an unknown one (404), so its existence is not confirmed. */
  const refuseUnseen = (req: FastifyRequest<{ Params: Params }>, reply: FastifyReply, user: WebUser) => {
    if (maySeeSession(deps.config(), user, req.params.agent, req.params.session)) return false;
    void reply.code(404).send({ error: m.NOT_FOUND });
    return true;
  };

  app.get<{ Querystring: { offset?: string } }>('/', async (req, reply) => {
    const user = signedIn(req, reply);
    if (!user) return reply;
    const offset = pageParam(req.query.offset) ?? 0;
    const list = renderSessions(await readVisibleSessions(redis, space, offset, visibleTo(user)));
    const body = html`<div class="sessions-live" data-stream="${SESSIONS_STREAM_URL}?offset=${offset}">${list}</div>`;
    return sendPage(reply, 200, m.SESSIONS_TITLE, user, body);
  });

  // The list's page, again whenever a session's history or running state changes.
  app.get<{ Querystring: { offset?: string } }>(SESSIONS_STREAM_URL, async (req, reply) => {
    const user = webUserOf(req);
    if (!user) return reply.code(401).send({ error: m.UNAUTHORIZED });
    const offset = pageParam(req.query.offset) ?? 0;
    const visible = visibleTo(user);
    return streams.serve(req, reply, {
      render: async () => ({
        html: renderSessions(await readVisibleSessions(redis, space, offset, visible)).value,
      }),
      watch: (wake) => onDashboardChange(deps.live.subscriber, prefix, (c) => c.topic === 'sessions', wake),
    });
  });

  app.get<{ Params: Params; Querystring: { before?: string } }>(
    '/ui/sessions/:agent/:session',
    async (req, reply) => {
      const user = signedIn(req, reply);
      if (!user) return reply;
      if (!maySeeSession(deps.config(), user, req.params.agent, req.params.session))
        return sendPage(reply, 404, m.SESSIONS_TITLE, user, html`<p class="error">${m.NOT_FOUND}</p>`);
      const { agent, session } = req.params;
      const [view, tree] = await Promise.all([
        readTranscript(redis, space, agent, session, pageParam(req.query.before)),
        readSessionTree(redis, space, logger, session),
      ]);
      // An emptied session (after /new) is still listed: it shows as empty; an unknown one is 404.
      const unknown =
        view.page.total === 0 &&
        !view.running &&
        (await sessionLastActivity(redis, space, agent, session)) === null;
      const status = unknown ? 404 : 200;
      const body =
        status === 404
          ? html`<p class="error">${m.NOT_FOUND}</p><p><a href="/">${m.BACK_TO_SESSIONS}</a></p>`
          : renderTranscript(view, renderSessionTree(tree));
      return sendPage(reply, status, m.transcriptTitle(agent), user, body);
    },
  );

  // The session's live trees and its running state, pushed to its transcript page.
  app.get<{ Params: Params }>('/ui/sessions/:agent/:session/stream', async (req, reply) => {
    const user = webUserOf(req);
    if (!user) return reply.code(401).send({ error: m.UNAUTHORIZED });
    if (refuseUnseen(req, reply, user)) return reply;
    return streams.serve(req, reply, liveTreeSource(treeDeps, req.params.session));
  });

  app.post<{ Params: Params }>('/ui/sessions/:agent/:session/abort', async (req, reply) => {
    const user = webUserOf(req);
    if (!user) return reply.code(401).send({ error: m.UNAUTHORIZED });
    if (refuseUnseen(req, reply, user)) return reply;
    // The agent in the path is the caller's word: a non-operator's abort needs that agent's session to exist.
    const { agent, session } = req.params;
    if (!user.operator && (await sessionLastActivity(redis, space, agent, session)) === null)
      return reply.code(404).send({ error: m.NOT_FOUND });
    const res = await deps.abortSession(session);
    return reply.send({ aborted: res.aborted, message: res.aborted ? m.ABORT_SENT : m.ABORT_NOTHING });
  });
}
