// The signed-in browser user (set by the web auth hook) and the CSRF check every operator write repeats.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sameSecret, type WebUser } from '../auth.ts';
import { CSRF_MISSING, NOT_SIGNED_IN } from '../auth-messages.ts';

export type { WebUser } from '../auth.ts';

/** The user, or null after answering 401 (no session: the auth hook normally answers first). */
export function requireWebUser(req: FastifyRequest, reply: FastifyReply): WebUser | null {
  if (req.webUser) return req.webUser;
  void reply.code(401).send({ error: NOT_SIGNED_IN });
  return null;
}

/** For writes: also the session's CSRF token in `x-csrf-token` (the auth hook checks it too; cheap to repeat). */
export function requireWriter(req: FastifyRequest, reply: FastifyReply): WebUser | null {
  const user = requireWebUser(req, reply);
  if (!user) return null;
  const sent = req.headers['x-csrf-token'];
  if (sameSecret(Array.isArray(sent) ? sent[0] : sent, user.csrf)) return user;
  void reply.code(403).send({ error: CSRF_MISSING });
  return null;
}
