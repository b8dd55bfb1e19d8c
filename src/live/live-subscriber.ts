// One Redis pub/sub connection per gateway for everything shown live (run events, new turns, dashboard changes):
// opened at the first listener, each channel subscribed at its first listener, closed with the server.

import type { Redis } from 'ioredis';
import type { Logger } from '../core/logger.ts';
import { createRedis } from '../core/redis.ts';
import type { RedisTarget } from '../core/redis-target.ts';

export interface LiveSubscriber {
  /** Calls `onMessage` with each message of `channel` (from the moment this resolves); returns the stop function. */
  listen(channel: string, onMessage: (message: string) => void): Promise<() => void>;
  close(): Promise<void>;
}

export function createLiveSubscriber(opts: {
  redisTarget: RedisTarget;
  logger: Pick<Logger, 'warn'>;
}): LiveSubscriber {
  const listeners = new Map<string, Set<(message: string) => void>>();
  const subscribed = new Map<string, Promise<unknown>>();
  let conn: Promise<Redis> | null = null;

  const connection = (): Promise<Redis> => {
    conn ??= (async () => {
      const s = createRedis(opts.redisTarget);
      s.on('error', (err: Error) => opts.logger.warn({ err: err.message }, 'live subscriber error'));
      s.on('message', (channel: string, message: string) => {
        for (const fn of listeners.get(channel) ?? []) fn(message);
      });
      return s;
    })();
    return conn;
  };

  return {
    async listen(channel, onMessage) {
      const set = listeners.get(channel) ?? new Set();
      listeners.set(channel, set);
      set.add(onMessage);
      let ready = subscribed.get(channel);
      if (!ready) {
        ready = connection().then((s) => s.subscribe(channel));
        subscribed.set(channel, ready);
      }
      try {
        await ready;
      } catch (err) {
        set.delete(onMessage);
        subscribed.delete(channel);
        throw err;
      }
      return () => {
        set.delete(onMessage);
      };
    },
    async close() {
      listeners.clear();
      subscribed.clear();
      const pending = conn;
      conn = null;
      const s = await pending?.catch(() => null);
      if (s) await s.quit().catch(() => s.disconnect());
    },
  };
}
