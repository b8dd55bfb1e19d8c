// Per-session model provider override set by model_switch, so later turns of the session keep it.
import type { Redis } from 'ioredis';
import type { Logger } from '../core/logger.ts';

const TTL_SECS = 30 * 24 * 60 * 60;

export interface SessionModelStore {
  get(agent: string, sessionKey: string): Promise<string | null>;
  set(agent: string, sessionKey: string, providerRef: string): Promise<void>;
}

export interface SessionModelReadOptions {
  logger: Pick<Logger, 'warn'>;
  /** Whether a stored reference names a provider this config has (an allowlist, checked on every read). */
  isProvider(ref: string): boolean;
}

/**
 * A stored override that names no configured provider (the config changed, or the record is damaged) is
 * logged and ignored, so the session falls back to the agent's provider instead of failing for 30 days.
 */
export function createSessionModelStore(
  redis: Redis,
  prefix: string,
  read?: SessionModelReadOptions,
): SessionModelStore {
  const key = (agent: string, session: string) => `${prefix}:session-model:${agent}:${session}`;
  return {
    async get(agent, sessionKey) {
      const ref = await redis.get(key(agent, sessionKey));
      if (ref === null || !read || read.isProvider(ref)) return ref;
      read.logger.warn(
        { key: key(agent, sessionKey), sample: ref.slice(0, 200) },
        'unknown session model ignored',
      );
      return null;
    },
    async set(agent, sessionKey, providerRef) {
      await redis.set(key(agent, sessionKey), providerRef, 'EX', TTL_SECS);
    },
  };
}
