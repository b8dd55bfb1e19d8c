// Cost texts of root turns and the cost log lines ([cost.enforcement], warn_at_percent; config.md §8).
// The delegate refusal texts (delegate.md §15) live here, where the checks that produce them run; the
// root-turn texts reuse their wording.

/** delegate.md §15 cost refusals: the part after `Agent '<t>' failed: `. */
export const costRefusal = {
  agentCeiling: (alias: string, spentCents: number, capCents: number) =>
    `daily cost ceiling reached for agent '${alias}' (${spentCents} of ${capCents} cents)`,
  sharedDaily: (spent: string, limit: string) => `shared daily cost limit reached ($${spent} of $${limit})`,
  sharedMonthly: (spent: string, limit: string) =>
    `shared monthly cost limit reached ($${spent} of $${limit})`,
} as const;

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

/** Log line: a ledger counter that is not an integer; every limit compared with it counts as reached. */
export const unreadableCounter =
  'unreadable cost counter: every limit that reads it counts as reached until its period ends';
