// Per-session model provider override set by model_switch, so later turns of the session keep it.
import type { Redis } from 'ioredis';

const TTL_SECS = 30 * 24 * 60 * 60;

export interface SessionModelStore {
  get(agent: string, sessionKey: string): Promise<string | null>;
  set(agent: string, sessionKey: string, providerRef: string): Promise<void>;
}

export function createSessionModelStore(redis: Redis, prefix: string): SessionModelStore {
  const key = (agent: string, session: string) => `${prefix}:session-model:${agent}:${session}`;
  return {
    get: (agent, sessionKey) => redis.get(key(agent, sessionKey)),
    async set(agent, sessionKey, providerRef) {
      await redis.set(key(agent, sessionKey), providerRef, 'EX', TTL_SECS);
    },
  };
}
