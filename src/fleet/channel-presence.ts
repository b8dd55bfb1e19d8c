// Channel presence (approvals.md §10): the gateway holding a channel refreshes `<prefix>:presence:<key>`; live while it exists.
// For single-consumer platforms the same key is the channel's lease (channel-lease.ts); its value is the holder id.
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { scanKeys } from '../core/redis-scan.ts';
import { loadRedisScript } from '../core/redis-script.ts';

const releasePresence = loadRedisScript(join(import.meta.dirname, 'lua', 'release-presence-1.lua'));

export const PRESENCE_TTL_SECS = 30;
export const PRESENCE_REFRESH_MS = 10_000;

export type ChannelState = 'live' | 'down';

export interface PresenceHold {
  /** Stops refreshing and removes the key, so the channel reads as down at once. */
  release(): Promise<void>;
}

export interface ChannelPresence {
  /** Marks `channelKey` live for `ttlSecs`; `holder` says which process holds it (e.g. a worker id). */
  refresh(channelKey: string, holder: string, ttlSecs?: number): Promise<void>;
  /** Refreshes now and every 10 s until released; refresh failures are logged, never thrown. */
  hold(channelKey: string, holder: string): Promise<PresenceHold>;
  /** Every channel with a presence key, sorted (SCAN, never KEYS). */
  liveChannels(): Promise<string[]>;
  /** The state of each given channel key. */
  states(channelKeys: readonly string[]): Promise<Record<string, ChannelState>>;
  /** Which gateway (holder id) holds each given channel key; null when none does. */
  holders(channelKeys: readonly string[]): Promise<Record<string, string | null>>;
}

export function createChannelPresence(redis: Redis, prefix: string, logger: Logger): ChannelPresence {
  const keyPrefix = `${prefix}:presence:`;
  // One GET per key, not MGET: each presence key is a lease of its own slot (§15.1.1 multi-key commands).
  const getEach = (channelKeys: readonly string[]) =>
    Promise.all(channelKeys.map((k) => redis.get(`${keyPrefix}${k}`)));
  const presence: ChannelPresence = {
    async refresh(channelKey, holder, ttlSecs = PRESENCE_TTL_SECS) {
      await redis.set(`${keyPrefix}${channelKey}`, holder, 'EX', ttlSecs);
    },
    async hold(channelKey, holder) {
      await presence.refresh(channelKey, holder);
      const timer = setInterval(() => {
        presence.refresh(channelKey, holder).catch((err: unknown) => {
          logger.warn({ channel: channelKey, err: errorMessage(err) }, 'channel presence refresh failed');
        });
      }, PRESENCE_REFRESH_MS);
      timer.unref();
      return {
        async release() {
          clearInterval(timer);
          await releasePresence(redis, [`${keyPrefix}${channelKey}`], [holder]);
        },
      };
    },
    async liveChannels() {
      const keys = await scanKeys(redis, `${keyPrefix}*`, 200);
      return keys.map((k) => k.slice(keyPrefix.length)).sort();
    },
    async states(channelKeys) {
      if (channelKeys.length === 0) return {};
      const values = await getEach(channelKeys);
      return Object.fromEntries(channelKeys.map((k, i) => [k, values[i] !== null ? 'live' : 'down']));
    },
    async holders(channelKeys) {
      if (channelKeys.length === 0) return {};
      const values = await getEach(channelKeys);
      return Object.fromEntries(channelKeys.map((k, i) => [k, values[i] ?? null]));
    },
  };
  return presence;
}
