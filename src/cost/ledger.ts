// The cost ledger in Redis: integer micro-dollars per UTC day/month, per agent and per ancestor (delegate.md §15).
import type { Redis } from 'ioredis';
import { utcPeriods } from './pricing.ts';

/** Daily keys outlive their day a little so a late reader near midnight still sees them; then they vanish. */
const DAY_TTL_SECS = 3 * 24 * 60 * 60;
const MONTH_TTL_SECS = 40 * 24 * 60 * 60;

export interface CostEntry {
  /** Ledger attribution: the alias whose row this is. */
  alias: string;
  /** Bounded ancestors, root first: each gets the spend in its descendant total. */
  ancestors: readonly string[];
  microUsd: number;
  perAgent: boolean;
  inputTokens?: number;
  outputTokens?: number;
  now?: Date;
}

export interface LedgerSnapshot {
  day: number;
  month: number;
  /** Per alias: its own daily spend and its descendants' (0 when per-agent tracking is off). */
  agents: Map<string, { own: number; descendants: number }>;
}

export interface CostLedger {
  record(entry: CostEntry): Promise<void>;
  read(aliases: readonly string[], now?: Date): Promise<LedgerSnapshot>;
  /** The Redis keys of one period (tests and operators). */
  keys(now?: Date): {
    day: string;
    month: string;
    agent(alias: string): string;
    descendants(alias: string): string;
  };
}

export function createCostLedger(redis: Redis, prefix: string): CostLedger {
  const keys = (now = new Date()) => {
    const { day, month } = utcPeriods(now);
    return {
      day: `${prefix}:cost:day:${day}`,
      month: `${prefix}:cost:month:${month}`,
      agent: (alias: string) => `${prefix}:cost:agent:${day}:${alias}`,
      descendants: (alias: string) => `${prefix}:cost:descendants:${day}:${alias}`,
      tokens: `${prefix}:cost:tokens:${day}`,
    };
  };
  return {
    keys,
    async record(e) {
      const k = keys(e.now);
      // One MULTI: every total moves together, so concurrent workers never see a half-applied request.
      const m = redis.multi();
      m.incrby(k.day, e.microUsd).expire(k.day, DAY_TTL_SECS);
      m.incrby(k.month, e.microUsd).expire(k.month, MONTH_TTL_SECS);
      if (e.perAgent) {
        m.incrby(k.agent(e.alias), e.microUsd).expire(k.agent(e.alias), DAY_TTL_SECS);
        for (const a of new Set(e.ancestors)) {
          m.incrby(k.descendants(a), e.microUsd).expire(k.descendants(a), DAY_TTL_SECS);
        }
      }
      if (e.inputTokens || e.outputTokens) {
        m.hincrby(k.tokens, `${e.alias}:input`, e.inputTokens ?? 0);
        m.hincrby(k.tokens, `${e.alias}:output`, e.outputTokens ?? 0).expire(k.tokens, DAY_TTL_SECS);
      }
      await m.exec();
    },
    async read(aliases, now) {
      const k = keys(now);
      const list = [...new Set(aliases)];
      const vals = await redis.mget(k.day, k.month, ...list.flatMap((a) => [k.agent(a), k.descendants(a)]));
      const num = (i: number) => Number(vals[i] ?? 0);
      const agents = new Map<string, { own: number; descendants: number }>();
      for (const [i, a] of list.entries())
        agents.set(a, { own: num(2 + 2 * i), descendants: num(3 + 2 * i) });
      return { day: num(0), month: num(1), agents };
    },
  };
}
