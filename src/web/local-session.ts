// The silent `local` sessions of a loopback bind without api_token, kept out of Redis: every cookie-less GET used to
// store a 12-hour session. A local cookie is a random id plus its HMAC under one deployment key (the only Redis key
// this uses); the chat id and CSRF token are derived from it, so each browser still has its own chat.
import { createHmac, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { sameSecret } from '../core/secret-compare.ts';
import type { StoredSession } from './session-store.ts';

const ID_CHARS = 32;
const MAC_CHARS = 32;

export interface LocalSessions {
  /** A new local session (nothing is written). */
  issue(): Promise<StoredSession>;
  /** The local session of this cookie value, or undefined when it is not one this deployment issued. */
  verify(cookie: string): Promise<StoredSession | undefined>;
}

export const localKeyName = (prefix: string) => `${prefix}:web:local-key`;

export function createLocalSessions(redis: Redis, prefix: string, login: string): LocalSessions {
  let key: Promise<string> | undefined;
  const keyOf = () => {
    key ??= (async () => {
      const name = localKeyName(prefix);
      // First gateway wins; every gateway of the deployment then signs with the same key.
      await redis.set(name, randomBytes(32).toString('base64url'), 'NX');
      const value = await redis.get(name);
      if (!value) throw new Error('web local session key missing');
      return value;
    })().catch((err: unknown) => {
      key = undefined;
      throw err;
    });
    return key;
  };
  const mac = (k: string, what: string, id: string) =>
    createHmac('sha256', k).update(`${what}:${id}`).digest();
  const session = (k: string, id: string): StoredSession => ({
    sessionId: `${id}${mac(k, 'cookie', id).toString('base64url').slice(0, MAC_CHARS)}`,
    login,
    chatId: mac(k, 'chat', id).toString('hex').slice(0, 32),
    csrf: mac(k, 'csrf', id).toString('base64url'),
    createdAt: 0,
    via: 'user',
  });
  return {
    async issue() {
      return session(await keyOf(), randomBytes(24).toString('base64url'));
    },
    async verify(cookie) {
      if (!/^[A-Za-z0-9_-]+$/.test(cookie) || cookie.length !== ID_CHARS + MAC_CHARS) return undefined;
      const s = session(await keyOf(), cookie.slice(0, ID_CHARS));
      return sameSecret(cookie, s.sessionId) ? s : undefined;
    },
  };
}
