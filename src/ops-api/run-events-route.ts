// The run events of live.md §6 as Server-Sent Events, resumable through Last-Event-ID: a turn's
// (GET /api/runs/:id/events, the SSE id its sequence number) and a session's recent and new turns'
// (GET /api/sessions/:id/tree/events, the SSE id its per-turn positions).
import type { FastifyInstance } from 'fastify';
import { errorMessage } from '../core/errors.ts';
import { isUuid } from '../core/ids.ts';
import { formatSessionCursor, parseSessionCursor } from '../live/session-cursor.ts';
import { followSession } from '../live/session-follower.ts';
import { keySpaceOf } from '../queue/names.ts';
import { badQuery } from './ops-api-messages.ts';
import type { OpsContext } from './ops-context.ts';
import { createSseStreams } from './sse-streams.ts';

const KEEPALIVE_MS = 15_000;

const lastEventId = (headers: Record<string, string | string[] | undefined>) => {
  const v = headers['last-event-id'];
  return typeof v === 'string' ? v : undefined;
};

export function registerRunEventRoutes(app: FastifyInstance, ctx: OpsContext): void {
  const streams = createSseStreams(app, KEEPALIVE_MS);
  // The client reconnects on its own and resumes from its Last-Event-ID.
  const failed = (what: Record<string, string>) => (err: unknown) =>
    ctx.logger.warn({ ...what, err: errorMessage(err) }, 'run event stream failed');

  app.get<{ Params: { id: string } }>('/api/runs/:id/events', async (req, reply) => {
    const id = req.params.id;
    // Run ids are UUIDs; anything else never becomes a key.
    if (!isUuid(id)) return reply.code(400).send({ error: badQuery('id', 'expected a run id') });
    const lastId = lastEventId(req.headers);
    const after = lastId !== undefined && /^\d{1,15}$/.test(lastId) ? Number(lastId) : 0;
    const events = ctx.live.runEvents;
    await streams.serve(
      reply,
      (write) => events.follow(id, after, (e) => write({ id: String(e.seq), data: JSON.stringify(e) })),
      failed({ root_run_id: id }),
    );
  });

  app.get<{ Params: { id: string } }>('/api/sessions/:id/tree/events', async (req, reply) => {
    const session = req.params.id;
    const positions = parseSessionCursor(lastEventId(req.headers));
    await streams.serve(
      reply,
      (write) =>
        followSession({
          feed: ctx.live.runEvents,
          redis: ctx.redis,
          space: keySpaceOf(ctx.config.redis),
          logger: ctx.logger,
          session,
          after: new Map(positions),
          onTurns(turns) {
            // Only the session's current turns are worth resuming from.
            const current = new Set(turns.map((t) => t.rootRunId));
            for (const root of positions.keys()) if (!current.has(root)) positions.delete(root);
          },
          onEvent(e) {
            positions.set(e.root_run_id, e.seq);
            write({ id: formatSessionCursor(positions), data: JSON.stringify(e) });
          },
        }),
      failed({ session }),
    );
  });
}
