// Pub/sub for approval decisions: one SUBSCRIBE connection per process, many local listeners per channel.
import type { Redis } from 'ioredis';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';

export interface DecisionSubscriptions {
  /** Resolves once Redis confirmed the subscription (a publish after that reaches `fn`). */
  listen(channel: string, fn: () => void): Promise<void>;
  unlisten(channel: string, fn: () => void): void;
  /** Stops dispatching; closes the connection if it was duplicated here. */
  close(): void;
}

/** `subscriber`: a connection used only for SUBSCRIBE; absent, one is duplicated from `redis` on first use. */
export function createDecisionSubscriptions(opts: {
  redis: Redis;
  subscriber?: Redis | undefined;
  logger: Pick<Logger, 'warn'>;
}): DecisionSubscriptions {
  const listeners = new Map<string, Set<() => void>>();
  let sub = opts.subscriber;
  let ownSub = false;
  let wired = false;
  const dispatch = (channel: string): void => {
    for (const fn of listeners.get(channel) ?? []) fn();
  };
  const connection = (): Redis => {
    if (!sub) {
      sub = opts.redis.duplicate();
      sub.on('error', () => {}); // ioredis reconnects on its own; polling covers the gap
      ownSub = true;
    }
    if (!wired) {
      sub.on('message', dispatch);
      wired = true;
    }
    return sub;
  };
  return {
    async listen(channel, fn) {
      const set = listeners.get(channel) ?? new Set();
      set.add(fn);
      listeners.set(channel, set);
      await connection().subscribe(channel);
    },
    unlisten(channel, fn) {
      const set = listeners.get(channel);
      set?.delete(fn);
      if (set && set.size > 0) return;
      listeners.delete(channel);
      sub
        ?.unsubscribe(channel)
        .catch((err: unknown) => opts.logger.warn({ err: errorMessage(err) }, 'approval unsubscribe failed'));
    },
    close() {
      sub?.off('message', dispatch);
      wired = false;
      if (ownSub) sub?.disconnect();
      if (ownSub) sub = undefined;
    },
  };
}
