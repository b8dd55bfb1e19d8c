// The signed-in browser user, set by the web auth hook (which also checks every write's CSRF token).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WebUser } from '../auth.ts';
import { NOT_SIGNED_IN } from '../auth-messages.ts';

export type { WebUser } from '../auth.ts';

/** The user, or null after answering 401 (no session: the auth hook normally answers first). */
export function requireWebUser(req: FastifyRequest, reply: FastifyReply): WebUser | null {
  if (req.webUser) return req.webUser;
  void reply.code(401).send({ error: NOT_SIGNED_IN });
  return null;
}
