// GET /api/runs/:id/events (live.md §6): a turn's run events as Server-Sent Events, resumable: each event's SSE id
// is its sequence number, and a reconnect with Last-Event-ID gets only what came after it.
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { errorMessage } from '../core/errors.ts';
import { createRunEventFeed, type RunEventFeed } from '../live/run-event-feed.ts';
import { badQuery } from './ops-api-messages.ts';
import type { OpsContext } from './ops-context.ts';

const KEEPALIVE_MS = 15_000;
/** Run ids are UUIDs; anything else never becomes a key. */
export const RUN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function registerRunEventRoutes(app: FastifyInstance, ctx: OpsContext): void {
  let feed: RunEventFeed | null = null;
  const open = new Set<ServerResponse>();
  // SSE responses never end on their own: end them so the server can close.
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });
  app.addHook('onClose', async () => {
    await feed?.close();
  });

  app.get<{ Params: { id: string } }>('/api/runs/:id/events', async (req, reply) => {
    const id = req.params.id;
    if (!RUN_ID.test(id)) return reply.code(400).send({ error: badQuery('id', 'expected a run id') });
    const lastId = req.headers['last-event-id'];
    const after = typeof lastId === 'string' && /^\d{1,15}$/.test(lastId) ? Number(lastId) : 0;
    feed ??= createRunEventFeed({
      redis: ctx.redis,
      redisUrl: ctx.config.redis.url,
      prefix: ctx.config.redis.prefix,
      logger: ctx.logger,
    });
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-content-type-options': 'nosniff',
    });
    res.write('retry: 2000\n\n');
    open.add(res);
    let stop: () => void = () => {};
    try {
      // One JSON line per event: no newline can split the SSE frame.
      stop = await feed.follow(id, after, (e) => res.write(`id: ${e.seq}\ndata: ${JSON.stringify(e)}\n\n`));
    } catch (err) {
      // The client reconnects on its own (retry above) and resumes from its Last-Event-ID.
      ctx.logger.warn({ root_run_id: id, err: errorMessage(err) }, 'run event stream failed');
      open.delete(res);
      res.end();
      return;
    }
    const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
    res.on('close', () => {
      clearInterval(keepalive);
      stop();
      open.delete(res);
    });
  });
}
