// Server-Sent Event streams on the gateway's server (the web chat feed, run events): the response set up once,
// replay-then-follow from the caller, keep-alive comments, clean-up on close, and ended at server close (an SSE
// response never ends on its own).
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** One frame: `data` is one JSON line (no newline can split the frame); `id` resumes through Last-Event-ID. */
export interface SseFrame {
  id?: string | undefined;
  data: string;
}

/** Starts delivering frames (replay, then new ones); resolves with the stop function. */
export type SseFollow = (write: (frame: SseFrame) => void) => Promise<() => void>;

export interface SseStreams {
  /** Takes over the reply; a failed follow ends the stream (the client reconnects and resumes). */
  serve(reply: FastifyReply, follow: SseFollow, onFailure: (err: unknown) => void): Promise<void>;
}

/**
 * Bytes a stream may hold unsent (the client not reading, or reading slowly): past this it is cut, and the client
 * reconnects and resumes from its Last-Event-ID. Without it a client that never reads grew the gateway's memory by
 * every frame pushed to it.
 */
export const MAX_UNSENT_BYTES = 4 * 1024 * 1024;

export function createSseStreams(
  app: FastifyInstance,
  keepaliveMs: number,
  maxUnsentBytes = MAX_UNSENT_BYTES,
): SseStreams {
  const open = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });
  return {
    async serve(reply, follow, onFailure) {
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
      let stop: () => void;
      try {
        stop = await follow((f) => {
          if (res.destroyed) return;
          res.write(`${f.id ? `id: ${f.id}\n` : ''}data: ${f.data}\n\n`);
          if (res.writableLength > maxUnsentBytes) res.destroy();
        });
      } catch (err) {
        onFailure(err);
        open.delete(res);
        res.end();
        return;
      }
      const keepalive = setInterval(() => res.write(': keepalive\n\n'), keepaliveMs);
      // A browser stream lives only as long as its session: signing out (here or on another gateway), expiry or
      // the user's removal from the config ends it at the next check (the page then finds itself signed out).
      const recheck = reply.request.webRecheck;
      const rechecking = recheck
        ? setInterval(() => {
            recheck.stillSignedIn().then(
              (ok) => {
                if (!ok) res.end();
              },
              () => {}, // Redis unreachable: the next check decides
            );
          }, recheck.everyMs)
        : undefined;
      const done = () => {
        clearInterval(keepalive);
        clearInterval(rechecking);
        stop();
        open.delete(res);
      };
      res.on('close', done);
      // The client may have gone while the replay ran.
      if (res.destroyed || res.writableEnded) done();
    },
  };
}
