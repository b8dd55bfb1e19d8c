// Per-session model provider override set by model_switch, so later turns of the session keep it.
import type { Redis } from 'ioredis';
import { providerOf } from '../config/lookup.ts';
import type { BatonConfig } from '../config/types.ts';
import type { Logger } from '../core/logger.ts';

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

/**
 * The provider a turn uses: the session's stored override when it still names a configured provider, else the
 * agent's own. A stored value is data from Redis (an old config, an earlier bug): one that names nothing is
 * ignored with a warning rather than failing every turn of the session for the 30 days it lives.
 */
export function sessionProviderRef(
  config: BatonConfig,
  stored: string | null,
  agentDefault: string,
  logger: Logger,
  scope: { agent_alias: string; session_key: string },
): string {
  if (stored === null) return agentDefault;
  if (providerOf(config, stored) !== undefined) return stored;
  logger.warn(
    { ...scope, stored_provider: stored.slice(0, 200) },
    'stored session model names no configured provider; using the agent default',
  );
  return agentDefault;
}
