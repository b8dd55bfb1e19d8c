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

/**
 * Who may change the config from the dashboard (a delegation_policy save, admitting a refused sender): today every
 * signed-in user, i.e. the one local user of a loopback bind or a holder of `api_token`. One rule for every
 * config edit, so narrowing it (operators only) narrows them all.
 */
export function requireConfigEditor(req: FastifyRequest, reply: FastifyReply): WebUser | null {
  return requireWebUser(req, reply);
}
