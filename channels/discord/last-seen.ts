// The last message seen per Discord channel, kept in Redis: where the catch-up after a (re)connect starts.
// One hash per bot (`<prefix>:discord:last-seen:<alias>`, channel id → message id), so whichever gateway holds the
// channel next reads what the previous one saw. Values are checked when read back: a bad one is skipped (logged).

import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { errorMessage } from '../../src/core/errors.ts';
import type { Logger } from '../../src/core/logger.ts';
import { createRedis } from '../../src/core/redis.ts';
import { loadRedisScript } from '../../src/core/redis-script.ts';
import type { RedisTarget } from '../../src/core/redis-target.ts';

const advance = loadRedisScript(join(import.meta.dirname, 'advance-last-seen-1.lua'));
const SNOWFLAKE = /^\d{1,20}$/;
/** A bot silent for this long starts over (nothing to catch up after a month away). */
export const LAST_SEEN_TTL_SECS = 30 * 24 * 60 * 60;
/** Channels caught up per (re)connect at most: the most recently active ones. */
export const MAX_CHANNELS = 200;

export interface LastSeenStore {
  /** Channel id → last seen message id, at most MAX_CHANNELS (newest first); throws when Redis fails. */
  all(): Promise<Map<string, string>>;
  /** Records a message as seen (only ever forward); failures are logged, never thrown. */
  seen(channelId: string, messageId: string): Promise<void>;
  close(): Promise<void>;
}

export const lastSeenKey = (prefix: string, alias: string) => `${prefix}:discord:last-seen:${alias}`;

export const isSnowflake = (v: string): boolean => SNOWFLAKE.test(v);

/** Newer first: longer ids are newer; at equal length, the string order is the numeric order. */
export const compareSnowflakes = (a: string, b: string): number =>
  a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;

export function createLastSeenStore(opts: {
  redisTarget: RedisTarget;
  prefix: string;
  alias: string;
  logger: Logger;
}): LastSeenStore {
  const key = lastSeenKey(opts.prefix, opts.alias);
  const redis: Redis = createRedis(opts.redisTarget);
  redis.on('error', () => {}); // reported by the failing command
  return {
    async all() {
      const raw = await redis.hgetall(key);
      const good: Array<[string, string]> = [];
      for (const [channel, message] of Object.entries(raw)) {
        if (isSnowflake(channel) && isSnowflake(message)) good.push([channel, message]);
        else
          opts.logger.warn({ key, field: channel.slice(0, 40) }, 'unreadable discord last seen id skipped');
      }
      good.sort((a, b) => compareSnowflakes(b[1], a[1]));
      return new Map(good.slice(0, MAX_CHANNELS));
    },
    async seen(channelId, messageId) {
      if (!isSnowflake(channelId) || !isSnowflake(messageId)) return;
      try {
        await advance(redis, [key], [channelId, messageId, LAST_SEEN_TTL_SECS]);
      } catch (err) {
        opts.logger.warn(
          { channel_id: channelId, err: errorMessage(err) },
          'discord last seen id not stored',
        );
      }
    },
    async close() {
      redis.disconnect();
    },
  };
}
