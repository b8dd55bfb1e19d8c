// GET /api/runs/:id/events (live.md §6): a turn's run events as Server-Sent Events, resumable: each event's SSE id
// is its sequence number, and a reconnect with Last-Event-ID gets only what came after it.
import type { FastifyInstance } from 'fastify';
import { errorMessage } from '../core/errors.ts';
import { isUuid } from '../core/ids.ts';
import { createRunEventFeed, type RunEventFeed } from '../live/run-event-feed.ts';
import { badQuery } from './ops-api-messages.ts';
import type { OpsContext } from './ops-context.ts';
import { createSseStreams } from './sse-streams.ts';

const KEEPALIVE_MS = 15_000;

export function registerRunEventRoutes(app: FastifyInstance, ctx: OpsContext): void {
  let feed: RunEventFeed | null = null;
  const streams = createSseStreams(app, KEEPALIVE_MS);
  app.addHook('onClose', async () => {
    await feed?.close();
  });

  app.get<{ Params: { id: string } }>('/api/runs/:id/events', async (req, reply) => {
    const id = req.params.id;
    // Run ids are UUIDs; anything else never becomes a key.
    if (!isUuid(id)) return reply.code(400).send({ error: badQuery('id', 'expected a run id') });
    const lastId = req.headers['last-event-id'];
    const after = typeof lastId === 'string' && /^\d{1,15}$/.test(lastId) ? Number(lastId) : 0;
    feed ??= createRunEventFeed({
      redis: ctx.redis,
      redisUrl: ctx.config.redis.url,
      prefix: ctx.config.redis.prefix,
      logger: ctx.logger,
    });
    const events = feed;
    await streams.serve(
      reply,
      (write) => events.follow(id, after, (e) => write({ id: String(e.seq), data: JSON.stringify(e) })),
      // The client reconnects on its own and resumes from its Last-Event-ID.
      (err) => ctx.logger.warn({ root_run_id: id, err: errorMessage(err) }, 'run event stream failed'),
    );
  });
}
