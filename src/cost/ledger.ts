// The cost ledger in Redis: integer micro-dollars per UTC day/month, per agent and per ancestor (delegate.md §15).
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { globalTag } from '../core/key-layout.ts';
import type { Logger } from '../core/logger.ts';
import { loadRedisScript } from '../core/redis-script.ts';
import type { CostLedger } from '../run-contract/cost-contract.ts';
import { unreadableCounter } from './cost-messages.ts';
import { utcPeriods } from './pricing.ts';

const reserveCost = loadRedisScript(join(import.meta.dirname, 'lua', 'reserve-cost-var.lua'));
const recordCost = loadRedisScript(join(import.meta.dirname, 'lua', 'record-cost-var.lua'));

/** Daily keys outlive their day a little so a late reader near midnight still sees them; then they vanish. */
const DAY_TTL_SECS = 3 * 24 * 60 * 60;
const MONTH_TTL_SECS = 40 * 24 * 60 * 60;

/** Milliseconds from `now` to the next UTC midnight and to the next UTC month start. */
function msToPeriodEnds(now: Date): { day: number; month: number } {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const t = now.getTime();
  return {
    day: Math.max(1, Date.UTC(y, m, now.getUTCDate() + 1) - t),
    month: Math.max(1, Date.UTC(y, m + 1, 1) - t),
  };
}

/** A counter as INCRBY leaves it (the Lua scripts accept the same form). */
const counterSchema = z
  .string()
  .regex(/^-?\d{1,18}$/)
  .transform(Number);

/**
 * A stored counter's value: missing is 0; one that is not an integer (damaged) is Infinity, so every limit
 * compared with it is reached (fail closed, as the Lua scripts do) and no NaN can let a check through.
 */
export function counterValue(raw: string | null | undefined): number {
  if (raw === null || raw === undefined) return 0;
  const parsed = counterSchema.safeParse(raw);
  return parsed.success && Number.isFinite(parsed.data) ? parsed.data : Number.POSITIVE_INFINITY;
}

/** The scripts' replies: leading integers, then the names of unreadable counters. */
const replySchema = z.array(z.union([z.number(), z.string()]));

function splitReply(reply: unknown): { nums: number[]; unreadable: string[] } {
  const parsed = replySchema.safeParse(reply);
  if (!parsed.success) throw new Error('unexpected cost ledger script reply');
  const nums = parsed.data.filter((v): v is number => typeof v === 'number');
  return { nums, unreadable: parsed.data.filter((v): v is string => typeof v === 'string') };
}

/**
 * The ledger's keys for the UTC day and month of `now`. One hash tag for all of them: a request's reservation
 * reads the shared totals and every chain member's totals in one script (spec/config.md §15.1.1).
 */
export function costKeys(prefix: string, now = new Date()) {
  const { day, month } = utcPeriods(now);
  const tag = globalTag(prefix, 'cost');
  return {
    day: `${tag}:day:${day}`,
    month: `${tag}:month:${month}`,
    agent: (alias: string) => `${tag}:agent:${day}:${alias}`,
    descendants: (alias: string) => `${tag}:descendants:${day}:${alias}`,
    tokens: `${tag}:tokens:${day}`,
    warned: { day: `${tag}:warned:day:${day}`, month: `${tag}:warned:month:${month}` },
  };
}

/** Every ledger key of a deployment, for SCAN (tests, operators clearing a ledger). */
export const costKeyPattern = (prefix: string): string => `${globalTag(prefix, 'cost')}:*`;

export function createCostLedger(redis: Redis, prefix: string, logger: Pick<Logger, 'error'>): CostLedger {
  // Logged at each sighting: a damaged counter stays until its period's key expires, and refuses meanwhile.
  const logUnreadable = (keys: readonly string[]) => {
    for (const key of keys) logger.error({ key }, unreadableCounter);
  };
  const keys = (now = new Date()) => costKeys(prefix, now);
  // The last shared totals seen, for checks that may be a moment stale (warn mode, never block).
  let seen: { day: number; month: number; period: string; at: number } | undefined;
  const see = (day: number, month: number, now = new Date()) => {
    seen = { day, month, period: utcPeriods(now).day, at: Date.now() };
  };
  return {
    keys,
    async record(e) {
      const now = e.now ?? new Date();
      const k = keys(now);
      const perAgent = e.perAgent ? [k.agent(e.alias), ...[...new Set(e.ancestors)].map(k.descendants)] : [];
      const ends = msToPeriodEnds(now);
      const reply = splitReply(
        await recordCost(
          redis,
          [k.day, k.month, k.tokens, k.warned.day, k.warned.month, ...perAgent],
          [
            e.microUsd,
            DAY_TTL_SECS,
            MONTH_TTL_SECS,
            e.alias,
            e.inputTokens ?? 0,
            e.outputTokens ?? 0,
            e.warnAt?.day ?? -1,
            e.warnAt?.month ?? -1,
            ends.day,
            ends.month,
          ],
        ),
      );
      logUnreadable(reply.unreadable);
      const [dayTotal = 0, monthTotal = 0, warnedDay, warnedMonth] = reply.nums;
      const bad = new Set(reply.unreadable);
      const day = bad.has(k.day) ? Number.POSITIVE_INFINITY : dayTotal;
      const month = bad.has(k.month) ? Number.POSITIVE_INFINITY : monthTotal;
      see(day, month, now);
      return { day, month, warned: { day: warnedDay === 1, month: warnedMonth === 1 } };
    },
    async reserve(req) {
      const k = keys(req.now);
      const reply = splitReply(
        await reserveCost(
          redis,
          [k.day, k.month, ...req.chain.flatMap((a) => [k.agent(a), k.descendants(a)])],
          [
            req.dailyLimit,
            req.monthlyLimit,
            req.perAgent ? 1 : 0,
            Math.max(0, Math.round(req.estimate)),
            DAY_TTL_SECS,
            MONTH_TTL_SECS,
            // Without route_down the thresholds are the limits: reaching them refuses before routing.
            req.route?.day ?? req.dailyLimit,
            req.route?.month ?? req.monthlyLimit,
            Math.max(0, Math.round(req.route?.estimate ?? req.estimate)),
            ...req.ceilings,
          ],
        ),
      );
      logUnreadable(reply.unreadable);
      const [code, a = 0, b = 0, c = 0] = reply.nums;
      if (code === 0) {
        see(b, c, req.now);
        return { ok: true, routed: a === 1, day: b, month: c };
      }
      if (code === 1) return { ok: false, limit: 'daily', spent: a };
      if (code === 2) return { ok: false, limit: 'ceiling', member: a, spent: b };
      return { ok: false, limit: 'monthly', spent: a };
    },
    async read(aliases, now) {
      const k = keys(now);
      const list = [...new Set(aliases)];
      const vals = await redis.mget(k.day, k.month, ...list.flatMap((a) => [k.agent(a), k.descendants(a)]));
      const keyOf = (i: number) =>
        i === 0 ? k.day : i === 1 ? k.month : (i % 2 === 0 ? k.agent : k.descendants)(list[(i - 2) >> 1]!);
      const nums = vals.map((v) => counterValue(v));
      logUnreadable(nums.flatMap((v, i) => (v === Number.POSITIVE_INFINITY ? [keyOf(i)] : [])));
      const num = (i: number) => nums[i] ?? 0;
      const agents = new Map<string, { own: number; descendants: number }>();
      for (const [i, a] of list.entries())
        agents.set(a, { own: num(2 + 2 * i), descendants: num(3 + 2 * i) });
      see(num(0), num(1), now);
      return { day: num(0), month: num(1), agents };
    },
    recentTotals(maxAgeMs, now) {
      if (!seen || Date.now() - seen.at > maxAgeMs || seen.period !== utcPeriods(now ?? new Date()).day)
        return undefined;
      return { day: seen.day, month: seen.month };
    },
  };
}
