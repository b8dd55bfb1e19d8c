// The shared daily/monthly limits of [cost] and [cost.enforcement] in micro-dollars, and their log lines.
import type { CostConfig } from '../config/types.ts';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import type { CostLedger, RecordResult } from '../run-contract/cost-contract.ts';
import { currentConfig } from '../run-contract/live-services.ts';
import type { RunContext } from '../run-contract/run-context.ts';
import { routedDown, type SharedPeriod, warnAtPercentCrossed, warnModeProceeds } from './cost-messages.ts';

interface Totals {
  day: number;
  month: number;
}

export const dollars = (micros: number) => (micros / 1_000_000).toFixed(2);

/** The spend a text shows: an unreadable counter reads as Infinity (limit reached) and shows as the limit. */
export const shownSpend = (spent: number, limit: number) => (Number.isFinite(spent) ? spent : limit);

export function sharedLimits(cost: CostConfig): Totals {
  return {
    day: Math.round(cost.daily_limit_usd * 1_000_000),
    month: Math.round(cost.monthly_limit_usd * 1_000_000),
  };
}

const percentOf = (limits: Totals, percent: number): Totals => ({
  day: Math.floor((limits.day * percent) / 100),
  month: Math.floor((limits.month * percent) / 100),
});

/** `(100 − reserve_percent)%` of each shared limit: from there route_down sends requests down. */
export const routeThresholds = (cost: CostConfig): Totals =>
  percentOf(sharedLimits(cost), 100 - cost.enforcement.reserve_percent);

export const warnThresholds = (cost: CostConfig): Totals =>
  percentOf(sharedLimits(cost), cost.warn_at_percent);

/** The first shared limit (daily, then monthly) that `totals` reached, with its figures. */
export function limitReached(
  cost: CostConfig,
  totals: Totals,
): { period: SharedPeriod; spent: number; limit: number } | null {
  const limits = sharedLimits(cost);
  if (totals.day >= limits.day)
    return { period: 'daily', spent: shownSpend(totals.day, limits.day), limit: limits.day };
  if (totals.month >= limits.month)
    return { period: 'monthly', spent: shownSpend(totals.month, limits.month), limit: limits.month };
  return null;
}

/** The ledger marks each crossing once per period fleet-wide; the caller that marked it logs it. */
export function logWarnCrossings(logger: Logger, cost: CostConfig, res: RecordResult): void {
  const limits = sharedLimits(cost);
  const log = (period: SharedPeriod, spent: number, limit: number) =>
    logger.warn(
      { period, spent_usd: dollars(spent), limit_usd: dollars(limit), warn_at_percent: cost.warn_at_percent },
      warnAtPercentCrossed(period, cost.warn_at_percent, dollars(spent), dollars(limit)),
    );
  if (res.warned.day) log('daily', res.day, limits.day);
  if (res.warned.month) log('monthly', res.month, limits.month);
}

export function logRoutedDown(run: RunContext, totals: Totals, ref: string): void {
  const cost = currentConfig(run.services).cost;
  const limits = sharedLimits(cost);
  const daily = totals.day >= routeThresholds(cost).day;
  const [spent, limit] = daily ? [totals.day, limits.day] : [totals.month, limits.month];
  run.logger.info(
    { period: daily ? 'daily' : 'monthly', route_down_model: ref },
    routedDown(daily ? 'daily' : 'monthly', dollars(spent), dollars(limit), ref),
  );
}

/**
 * Totals up to this old are good enough for `warn`, which only logs: a turn then checks without waiting
 * on Redis. `block` and `route_down` never use them (they check and reserve in one script).
 */
const RECENT_MS = 1000;
const inFlight = new WeakMap<CostLedger, Promise<Totals>>();

/** `warn` mode: logs when a shared limit is reached and never delays the request (not awaited). */
export function warnIfLimitReached(run: RunContext, ledger: CostLedger): void {
  const log = (totals: Totals) => {
    const cost = currentConfig(run.services).cost;
    const hit = limitReached(cost, totals);
    if (!hit) return;
    const [spent, limit] = [dollars(hit.spent), dollars(hit.limit)];
    run.logger.warn(
      { period: hit.period, spent_usd: spent, limit_usd: limit },
      warnModeProceeds(hit.period, spent, limit),
    );
  };
  const recent = ledger.recentTotals(RECENT_MS);
  if (recent) {
    log(recent);
    return;
  }
  // One read in flight per ledger, however many turns start at once.
  let pending = inFlight.get(ledger);
  if (!pending) {
    pending = ledger.read([]).finally(() => inFlight.delete(ledger));
    inFlight.set(ledger, pending);
  }
  pending.then(log, (err: unknown) =>
    run.logger.debug({ err: errorMessage(err) }, 'cost totals read failed (warn mode)'),
  );
}
