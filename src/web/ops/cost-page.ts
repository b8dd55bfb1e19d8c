// /ui/cost: today's and this month's spend from the Redis ledger against the [cost] limits (delegate.md §15).
import { runtimeProfileFor } from '../../config/lookup.ts';
import type { BatonConfig } from '../../config/types.ts';
import { utcPeriods } from '../../cost/pricing.ts';
import { dollars, sharedLimits } from '../../cost/shared-limits.ts';
import type { LedgerSnapshot } from '../../run-contract/cost-contract.ts';
import { type Html, html } from '../html.ts';
import { COST_OFF, NO_LIMIT, PER_AGENT_MONTH_NOTE, PER_AGENT_OFF } from './ops-page-messages.ts';

/** An unreadable counter reads as Infinity in the ledger (limit reached): shown as such, never as a number. */
const usd = (micros: number) =>
  Number.isFinite(micros) ? `$${dollars(micros)}` : 'unreadable (limit reached)';

function meter(spent: number, limit: number): Html {
  const pct = limit > 0 ? Math.min(100, Math.floor((spent / limit) * 100)) : 100;
  const shown = Number.isFinite(pct) ? pct : 100;
  return html`<meter min="0" max="100" low="80" high="99" optimum="0" value="${shown}">${shown}%</meter> ${shown}%`;
}

/** The agent's own daily ceiling (max_cost_per_day_cents), or null for 0 (the shared daily limit applies). */
function ceilingMicros(config: BatonConfig, alias: string): number | null {
  const cents = runtimeProfileFor(config, alias).max_cost_per_day_cents;
  return cents === 0 ? null : cents * 10_000;
}

export function costFragment(config: BatonConfig, snap: LedgerSnapshot, now: Date): Html {
  const cost = config.cost;
  const limits = sharedLimits(cost);
  const { day, month } = utcPeriods(now);
  const rows = Object.keys(config.agents)
    .sort()
    .map((alias) => {
      const a = snap.agents.get(alias) ?? { own: 0, descendants: 0 };
      const ceiling = ceilingMicros(config, alias);
      const cap = ceiling ?? limits.day;
      return html`<tr data-agent="${alias}"><td>${alias}</td><td class="num" data-field="own">${usd(a.own)}</td>
<td class="num">${usd(a.descendants)}</td><td>${ceiling === null ? NO_LIMIT : usd(ceiling)}</td><td>${meter(a.own, cap)}</td></tr>`;
    });
  return html`${cost.enabled ? '' : html`<p class="bad">${COST_OFF}</p>`}
<section><h2>Shared totals</h2>
<table class="cost-shared"><thead><tr><th>Period (UTC)</th><th>Spent</th><th>Limit</th><th></th></tr></thead><tbody>
<tr data-period="day"><td>Today ${day}</td><td class="num" data-field="spent">${usd(snap.day)}</td><td>${usd(limits.day)}</td><td>${meter(snap.day, limits.day)}</td></tr>
<tr data-period="month"><td>Month ${month}</td><td class="num" data-field="spent">${usd(snap.month)}</td><td>${usd(limits.month)}</td><td>${meter(snap.month, limits.month)}</td></tr>
</tbody></table>
<p class="muted">Enforcement: ${cost.enforcement.mode}; warn at ${String(cost.warn_at_percent)}%.</p>
</section>
<section><h2>Per agent, today</h2>
${cost.track_per_agent ? '' : html`<p class="muted">${PER_AGENT_OFF}</p>`}
<table class="cost-agents"><thead><tr><th>Agent</th><th>Own spend</th><th>Descendants</th><th>Daily ceiling</th><th></th></tr></thead>
<tbody>${rows}</tbody></table>
<p class="muted">${PER_AGENT_MONTH_NOTE}</p>
</section>`;
}
