// The signed-in browser user the web auth hook puts on the request, and the CSRF check every write repeats.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_REFUSED, NOT_SIGNED_IN } from './messages.ts';

/** Set by the web auth hook (src/web/auth.ts) on `/`, `/ui/*` and `/chat/*`. */
export interface WebUser {
  login: string;
  /** `web:<login>` */
  peerId: string;
  sessionId: string;
  chatId: string;
  csrf: string;
}

export const webUserOf = (req: FastifyRequest): WebUser | undefined =>
  (req as FastifyRequest & { webUser?: WebUser }).webUser;

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** The user, or null after answering 401 (no session). */
export function requireWebUser(req: FastifyRequest, reply: FastifyReply): WebUser | null {
  const user = webUserOf(req);
  if (user) return user;
  void reply.code(401).type('text/plain; charset=utf-8').send(NOT_SIGNED_IN);
  return null;
}

/** For writes: also the session's CSRF token in `x-csrf-token` (the auth hook checks it too; cheap to repeat). */
export function requireWriter(req: FastifyRequest, reply: FastifyReply): WebUser | null {
  const user = requireWebUser(req, reply);
  if (!user) return null;
  const sent = req.headers['x-csrf-token'];
  const ok = typeof sent === 'string' && timingSafeEqual(digest(sent), digest(user.csrf)) && user.csrf !== '';
  if (ok) return user;
  void reply.code(403).send({ error: CSRF_REFUSED });
  return null;
}
