// One pub/sub connection per gateway for every web chat: a notification names the chat whose stream grew (or
// that the bot is typing there); browsers following that chat on this gateway then read the stream.

import type { Redis } from 'ioredis';
import type { Logger } from '../../src/core/logger.ts';
import { createRedis } from '../../src/core/redis.ts';
import type { RedisTarget } from '../../src/core/redis-target.ts';

export type HubSignal = 'append' | 'typing';
type Listener = (signal: HubSignal) => void;

export interface WebChatHub {
  /** Connects on the first call; each call must be paired with release(). */
  acquire(): Promise<void>;
  release(): Promise<void>;
  /** Signals for one chat; returns the unsubscribe function. */
  listen(alias: string, chatId: string, fn: Listener): () => void;
  notify(publisher: Redis, alias: string, chatId: string, signal: HubSignal): Promise<void>;
}

export function createWebChatHub(opts: {
  redisTarget: RedisTarget;
  prefix: string;
  logger: Logger;
}): WebChatHub {
  const channelPrefix = `${opts.prefix}:web:notify:`;
  const listeners = new Map<string, Set<Listener>>();
  let sub: Redis | null = null;
  let users = 0;
  const keyOf = (alias: string, chatId: string) => `${alias}\u0000${chatId}`;

  return {
    async acquire() {
      users++;
      if (sub) return;
      sub = createRedis(opts.redisTarget);
      sub.on('error', (err: Error) => opts.logger.warn({ err: err.message }, 'web chat subscriber error'));
      sub.on('pmessage', (_pattern: string, channel: string, message: string) => {
        const alias = channel.slice(channelPrefix.length);
        const sep = message.indexOf(' ');
        const chatId = sep < 0 ? message : message.slice(0, sep);
        const signal: HubSignal = sep >= 0 && message.slice(sep + 1) === 'typing' ? 'typing' : 'append';
        for (const fn of listeners.get(keyOf(alias, chatId)) ?? []) fn(signal);
      });
      await sub.psubscribe(`${channelPrefix}*`);
    },
    async release() {
      users = Math.max(0, users - 1);
      if (users > 0 || !sub) return;
      const s = sub;
      sub = null;
      await s.quit().catch(() => s.disconnect());
    },
    listen(alias, chatId, fn) {
      const k = keyOf(alias, chatId);
      const set = listeners.get(k) ?? new Set<Listener>();
      set.add(fn);
      listeners.set(k, set);
      return () => {
        set.delete(fn);
        if (set.size === 0) listeners.delete(k);
      };
    },
    async notify(publisher, alias, chatId, signal) {
      await publisher.publish(`${channelPrefix}${alias}`, signal === 'typing' ? `${chatId} typing` : chatId);
    },
  };
}
