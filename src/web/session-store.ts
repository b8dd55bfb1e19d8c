// Browser sessions in Redis: keyed by a hash of the cookie id (a leaked key list names no cookie), sliding TTL,
// every record validated on the way back (a bad one is no session, logged).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { WEB_LOGIN_RE } from '../config/secret-hash-form.ts';
import type { Logger } from '../core/logger.ts';
import { parseRecord } from '../core/redis-record.ts';
import type { SessionVia } from './users/web-users.ts';

/** Idle time after which a session ends; every request it makes extends it. */
export const SESSION_TTL_SECS = 12 * 60 * 60;

/** Letters, digits, `.`, `_`, `-`; lower-cased so one person is one peer id. */
export const LOGIN_RE = WEB_LOGIN_RE;

const sessionRecordSchema = z.object({
  login: z.string().regex(LOGIN_RE),
  chatId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/),
  csrf: z.string().min(32).max(128),
  createdAt: z.number().int().nonnegative(),
  // Absent in records written before per-user sign-in: those were token sign-ins under a typed name.
  via: z.enum(['user', 'token']).default('token'),
});
export type SessionRecord = z.infer<typeof sessionRecordSchema>;

export interface StoredSession extends SessionRecord {
  sessionId: string;
}

export interface SessionStore {
  create(login: string, via: SessionVia): Promise<StoredSession>;
  /** The session of this cookie id, its TTL extended; undefined when unknown, expired or unreadable. */
  get(sessionId: string): Promise<StoredSession | undefined>;
  /** As get, without extending the TTL (an open stream asking whether its session still stands). */
  peek(sessionId: string): Promise<StoredSession | undefined>;
  delete(sessionId: string): Promise<void>;
}

const token = (bytes: number) => randomBytes(bytes).toString('base64url');
const idHash = (sessionId: string) => createHash('sha256').update(sessionId, 'utf8').digest('hex');

export const webSessionKey = (prefix: string, sessionId: string) =>
  `${prefix}:web:session:${idHash(sessionId)}`;

export function createSessionStore(redis: Redis, prefix: string, logger: Logger): SessionStore {
  const key = (id: string) => webSessionKey(prefix, id);
  return {
    async create(login, via) {
      const sessionId = token(32);
      const rec: SessionRecord = {
        login,
        chatId: randomUUID().replaceAll('-', ''),
        csrf: token(32),
        createdAt: Date.now(),
        via,
      };
      await redis.set(key(sessionId), JSON.stringify(rec), 'EX', SESSION_TTL_SECS);
      return { ...rec, sessionId };
    },
    async get(sessionId) {
      if (!/^[A-Za-z0-9_-]{20,100}$/.test(sessionId)) return undefined;
      const k = key(sessionId);
      // GETEX reads and slides the TTL in one command.
      const raw = await redis.getex(k, 'EX', SESSION_TTL_SECS);
      const rec = parseRecord(sessionRecordSchema, raw, { logger, key: k, what: 'web session' });
      return rec ? { ...rec, sessionId } : undefined;
    },
    async peek(sessionId) {
      if (!/^[A-Za-z0-9_-]{20,100}$/.test(sessionId)) return undefined;
      const k = key(sessionId);
      const rec = parseRecord(sessionRecordSchema, await redis.get(k), {
        logger,
        key: k,
        what: 'web session',
      });
      return rec ? { ...rec, sessionId } : undefined;
    },
    async delete(sessionId) {
      await redis.del(key(sessionId));
    },
  };
}
