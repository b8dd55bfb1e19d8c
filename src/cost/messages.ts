// Cost texts of root turns and the cost log lines ([cost.enforcement], warn_at_percent; config.md §8).
// The figures follow the delegate refusal texts (delegate.md §15), whose wording they reuse.
import { costRefusal } from '../tools/delegate/messages.ts';

export type SharedPeriod = 'daily' | 'monthly';

/** `$<spent> of $<limit>` in the delegate wording, for either period. */
export const sharedLimitReached = (period: SharedPeriod, spent: string, limit: string) =>
  period === 'daily' ? costRefusal.sharedDaily(spent, limit) : costRefusal.sharedMonthly(spent, limit);

/**
 * A root turn's refused model request (`block`, or `route_down` at the limit). The turn worker shows it as
 * `⚠️ Sorry, I could not answer: <this>`, so it says when asking again can work.
 */
export const rootLimitRefusal = (period: SharedPeriod, spent: string, limit: string) =>
  `${sharedLimitReached(period, spent, limit)}; ${
    period === 'daily' ? 'try again after 00:00 UTC' : 'try again next month (UTC)'
  }`;

export const warnModeProceeds = (period: SharedPeriod, spent: string, limit: string) =>
  `${sharedLimitReached(period, spent, limit)}; the request proceeds (cost.enforcement mode "warn")`;

export const warnAtPercentCrossed = (period: SharedPeriod, percent: number, spent: string, limit: string) =>
  `shared ${period} cost total crossed warn_at_percent (${percent}%): $${spent} of $${limit}`;

export const routedDown = (period: SharedPeriod, spent: string, limit: string, ref: string) =>
  `shared ${period} cost total at $${spent} of $${limit}, past the route_down threshold; request sent to "${ref}"`;
