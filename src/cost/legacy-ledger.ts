// Spend recorded before the hash-tagged layout (`<prefix>:cost:*`, spec/config.md §15.1.1) still counts: a worker
// moves it into the ledger's keys (`{<prefix>:cost}:*`) when it starts, so an upgrade during a day or a month does
// not reset that period's caps. Each old key is taken with GETDEL (or DEL after reading), so two workers starting
// together never add it twice; a process killed between the take and the add forgets that one key's spend.
import type { Redis } from 'ioredis';
import { globalTag } from '../core/key-layout.ts';
import type { Logger } from '../core/logger.ts';
import { scanKeys } from '../core/redis-scan.ts';

/** What a start found and moved: key count, for the log line. */
export interface CarriedCost {
  keys: number;
}

const INTEGER = /^-?\d{1,18}$/;

/** The new name of an old ledger key: the same rest under the cost tag. */
export const carriedName = (prefix: string, legacyKey: string): string =>
  `${globalTag(prefix, 'cost')}:${legacyKey.slice(`${prefix}:cost:`.length)}`;

async function carryString(redis: Redis, from: string, to: string, ttlMs: number): Promise<boolean> {
  const raw = await redis.getdel(from);
  if (raw === null) return false; // another worker took it
  if (to.includes(':warned:') || !INTEGER.test(raw)) {
    // A warned marker, or a damaged counter: kept as it is (a damaged one keeps refusing, fail closed).
    await (ttlMs > 0 ? redis.set(to, raw, 'PX', ttlMs, 'NX') : redis.set(to, raw, 'NX'));
    return true;
  }
  const total = await redis.incrby(to, Number(raw));
  if (total === Number(raw) && ttlMs > 0) await redis.pexpire(to, ttlMs);
  return true;
}

async function carryHash(redis: Redis, from: string, to: string, ttlMs: number): Promise<boolean> {
  const [[, fields], [, deleted]] = (await redis.multi().hgetall(from).del(from).exec()) as [
    [unknown, Record<string, string>],
    [unknown, number],
  ];
  if (deleted === 0) return false;
  for (const [field, value] of Object.entries(fields)) {
    if (INTEGER.test(value)) await redis.hincrby(to, field, Number(value));
  }
  if (ttlMs > 0) await redis.pexpire(to, ttlMs);
  return true;
}

/** Moves every old-layout ledger key of `prefix` into the tagged ledger; logs once when it moved any. */
export async function carryLegacyCost(
  redis: Redis,
  prefix: string,
  logger: Pick<Logger, 'info'>,
): Promise<CarriedCost> {
  let keys = 0;
  for (const from of await scanKeys(redis, `${prefix}:cost:*`)) {
    const to = carriedName(prefix, from);
    const [type, ttlMs] = await Promise.all([redis.type(from), redis.pttl(from)]);
    if (type === 'string' && (await carryString(redis, from, to, ttlMs))) keys++;
    else if (type === 'hash' && (await carryHash(redis, from, to, ttlMs))) keys++;
  }
  if (keys > 0)
    logger.info({ keys }, 'cost ledger: spend recorded before the hash-tagged key layout carried over');
  return { keys };
}
