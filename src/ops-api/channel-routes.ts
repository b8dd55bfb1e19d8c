// Channel webhook routes (Slack HTTP mode…) on the ops server: raw bodies of any content type, a larger body
// limit than the ops API's, and no bearer token (the adapter verifies the platform's own signature).
import type { FastifyInstance } from 'fastify';
import type { ChannelHttpRequest, ChannelHttpRoute } from '../channel-host/types.ts';

/** Slack interactivity payloads (a message's blocks, form-encoded) run well past the ops API's 16 KiB. */
export const CHANNEL_BODY_LIMIT_BYTES = 1024 * 1024;

function headersOf(raw: Record<string, string | string[] | undefined>): ChannelHttpRequest['headers'] {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(raw)) out[k.toLowerCase()] = Array.isArray(v) ? v[0] : v;
  return out;
}

export function registerChannelRoutes(app: FastifyInstance, routes: readonly ChannelHttpRoute[]): void {
  if (routes.length === 0) return;
  // Its own encapsulated context: the parsers below replace the ops API's JSON parser for these routes only.
  void app.register(async (child) => {
    child.removeAllContentTypeParsers();
    child.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: CHANNEL_BODY_LIMIT_BYTES },
      (_req, body, done) => done(null, body),
    );
    for (const route of routes) {
      child.route({
        method: route.method,
        url: route.path,
        bodyLimit: CHANNEL_BODY_LIMIT_BYTES,
        handler: async (req, reply) => {
          const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
          const res = await route.handle({ headers: headersOf(req.headers), body });
          reply.code(res.status);
          if (res.body === undefined) return reply.send('');
          if (typeof res.body === 'string') return reply.type('text/plain; charset=utf-8').send(res.body);
          return reply.send(res.body);
        },
      });
    }
  });
}
