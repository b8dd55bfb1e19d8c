// Cancellation across processes: aborts are published on Redis pub/sub and applied by whoever runs the work.
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { parseRecord } from '../core/redis-record.ts';

export type AbortKind = 'session' | 'task';

const abortMessageSchema = z.object({
  kind: z.enum(['session', 'task']),
  id: z.string().min(1),
  reason: z.string().optional(),
  /** The run the publisher found running: only that run stops (a turn begun after it is another run). */
  run: z.string().min(1).optional(),
});

export interface AbortBus {
  /**
   * Makes `controller` abort when an abort for (kind, id) is published anywhere, unless the abort names another
   * run than `run`; returns the unregister function.
   */
  register(kind: AbortKind, id: string, controller: AbortController, run?: string): () => void;
  /** Publishes an abort; every process holding that work (that run, when `run` is given) aborts it. */
  publish(kind: AbortKind, id: string, reason?: string, run?: string): Promise<void>;
  close(): Promise<void>;
}

/** `subscriber` must be a dedicated connection (a subscribed ioredis client can run nothing else). */
export function createAbortBus(
  publisher: Redis,
  subscriber: Redis,
  prefix: string,
  logger: Logger,
): AbortBus {
  const channel = `${prefix}:aborts`;
  const local = new Map<string, Set<{ controller: AbortController; run: string | undefined }>>();
  const ready = subscriber.subscribe(channel);
  // Awaited only by publish: if the connection ends before Redis answers (a close, a stop during start), the
  // rejection must not surface as unhandled ("Connection is closed.") while nobody publishes.
  ready.catch((err: unknown) =>
    logger.debug({ err: errorMessage(err), channel }, 'abort bus subscribe ended'),
  );
  subscriber.on('message', (ch: string, raw: string) => {
    if (ch !== channel) return;
    const msg = parseRecord(abortMessageSchema, raw, { logger, key: channel, what: 'abort message' });
    if (!msg) return;
    for (const { controller, run } of local.get(`${msg.kind}:${msg.id}`) ?? []) {
      if (msg.run !== undefined && run !== undefined && msg.run !== run) continue;
      controller.abort(new Error(msg.reason ?? 'Cancelled'));
    }
  });
  return {
    register(kind, id, controller, run) {
      const key = `${kind}:${id}`;
      const set = local.get(key) ?? new Set();
      const entry = { controller, run };
      set.add(entry);
      local.set(key, set);
      return () => {
        set.delete(entry);
        if (set.size === 0) local.delete(key);
      };
    },
    async publish(kind, id, reason, run) {
      await ready;
      await publisher.publish(channel, JSON.stringify({ kind, id, reason, run }));
    },
    async close() {
      await subscriber.unsubscribe(channel).catch(() => {});
    },
  };
}
