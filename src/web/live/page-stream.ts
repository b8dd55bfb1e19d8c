// Dashboard pages pushed by the server (live.md §6, not polled): a page's stream renders its live part when
// something it shows may have changed, at most once per `minGapMs` however busy the deployment, and sends it only
// when it differs from the last frame. Asked without `Accept: text/event-stream`, the same route answers the
// frame once as JSON: the page's slow refresh for when the stream cannot be had.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorMessage } from '../../core/errors.ts';
import type { Logger } from '../../core/logger.ts';
import { createSseStreams } from '../../ops-api/sse-streams.ts';

/** What the page swaps in: its live element's markup (every value escaped), and the conversations running. */
export interface PageFrame {
  html: string;
  running?: string[];
}

export interface PageSource {
  render(): Promise<PageFrame>;
  /** Calls `wake` on every change that may alter the frame, from the moment this resolves; returns the stop. */
  watch(wake: () => void): Promise<() => void>;
  /** Default 250 ms: at most four frames a second. */
  minGapMs?: number;
}

export interface PageStreams {
  serve(req: FastifyRequest, reply: FastifyReply, source: PageSource): Promise<unknown>;
}

const KEEPALIVE_MS = 25_000;
const MIN_GAP_MS = 250;

export function createPageStreams(
  app: FastifyInstance,
  o: { redact: (text: string) => string; logger: Pick<Logger, 'warn'> },
): PageStreams {
  const streams = createSseStreams(app, KEEPALIVE_MS);
  return {
    async serve(req, reply, source) {
      if (!(req.headers.accept ?? '').includes('text/event-stream')) {
        // A plain reply: the server's onSend hook redacts it like every other response.
        return reply
          .code(200)
          .header('cache-control', 'no-store')
          .send(await source.render());
      }
      return streams.serve(
        reply,
        (write) => follow(source, (data) => write({ data: o.redact(data) }), o.logger),
        (err) => o.logger.warn({ err: errorMessage(err) }, 'dashboard page stream failed'),
      );
    },
  };
}

/** Renders now and after each burst of wakes; resolves once the first frame is written. */
async function follow(
  source: PageSource,
  send: (data: string) => void,
  logger: Pick<Logger, 'warn'>,
): Promise<() => void> {
  const gap = source.minGapMs ?? MIN_GAP_MS;
  let last = '';
  let lastAt = 0;
  let timer: NodeJS.Timeout | null = null;
  let rendering = false;
  let again = false;
  let stopped = false;

  const render = async () => {
    timer = null;
    rendering = true;
    again = false;
    lastAt = Date.now();
    try {
      const data = JSON.stringify(await source.render());
      if (!stopped && data !== last) {
        last = data;
        send(data);
      }
    } catch (err) {
      // The next change renders again; the page keeps what it shows meanwhile.
      logger.warn({ err: errorMessage(err) }, 'dashboard page not rendered');
    } finally {
      rendering = false;
    }
    if (again) wake();
  };
  const wake = () => {
    if (stopped) return;
    if (rendering) again = true;
    else timer ??= setTimeout(() => void render(), Math.max(0, lastAt + gap - Date.now()));
  };

  // Watching first: a change during the first render renders again after it.
  const stop = await source.watch(wake);
  await render();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    stop();
  };
}
