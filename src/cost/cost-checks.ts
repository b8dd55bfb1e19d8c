// The §15 cost checks of a hop, and the atomic check-and-reserve before each model request.
import { runtimeProfileFor } from '../config/lookup.ts';
import type { BatonConfig } from '../config/types.ts';
import type { CostScope } from '../run-contract/cost-contract.ts';
import { currentConfig } from '../run-contract/live-services.ts';
import type { RuntimeServices } from '../run-contract/run-context.ts';
import { costRefusal, rootLimitRefusal } from './cost-messages.ts';
import { dollars, routeThresholds, sharedLimits, shownSpend } from './shared-limits.ts';

/** An agent's own daily ceiling in micro-dollars: `0` means the global daily limit. */
function ownCeilingMicros(config: BatonConfig, alias: string): number {
  const cents = runtimeProfileFor(config, alias).max_cost_per_day_cents;
  return cents === 0 ? Math.round(config.cost.daily_limit_usd * 1_000_000) : cents * 10_000;
}

/** Effective ceiling of chain[i]: the tightest own ceiling from the root down to it. */
function effectiveCeilings(config: BatonConfig, chain: readonly string[]): number[] {
  const effective: number[] = [];
  for (const [i, a] of chain.entries()) {
    effective.push(Math.min(ownCeilingMicros(config, a), effective[i - 1] ?? Infinity));
  }
  return effective;
}

const cents = (micros: number) => Math.floor(micros / 10_000);

/**
 * The §15 checks in order; returns the refusal (the part after `Agent '<t>' failed: `) or null.
 * Limits and prices come from the current config, so a reload applies at the next check.
 */
export async function checkCostCeilings(services: RuntimeServices, scope: CostScope): Promise<string | null> {
  const { cost: ledger } = services;
  const config = currentConfig(services);
  if (!scope.tracked || !ledger) return null;
  const chain = [...scope.ancestors, scope.alias];
  const snap = await ledger.read(chain);
  const limits = sharedLimits(config.cost);
  // An unreadable counter reads as Infinity: its limit is reached, and the text shows the limit.
  if (snap.day >= limits.day)
    return costRefusal.sharedDaily(dollars(shownSpend(snap.day, limits.day)), dollars(limits.day));

  const effective = effectiveCeilings(config, chain);
  const spentOf = (a: string, withDescendants: boolean) => {
    if (!scope.perAgent) return snap.day;
    const row = snap.agents.get(a) ?? { own: 0, descendants: 0 };
    return withDescendants ? row.own + row.descendants : row.own;
  };
  const hop = chain.length - 1;
  const own = spentOf(scope.alias, false);
  if (own >= effective[hop]!)
    return costRefusal.agentCeiling(
      scope.alias,
      cents(shownSpend(own, effective[hop]!)),
      cents(effective[hop]!),
    );
  for (let i = 0; i < hop; i++) {
    const a = chain[i]!;
    const spent = spentOf(a, true);
    if (spent >= effective[i]!)
      return costRefusal.agentCeiling(a, cents(shownSpend(spent, effective[i]!)), cents(effective[i]!));
  }
  if (snap.month >= limits.month)
    return costRefusal.sharedMonthly(dollars(shownSpend(snap.month, limits.month)), dollars(limits.month));
  return null;
}

export type SlotOutcome =
  | { refused: string }
  | { refused: null; routed: boolean; reserved: number; day: number; month: number };

/**
 * The checks made atomically together with a reservation of the estimate, so concurrent requests (in any
 * worker) cannot all pass a check only one of them may pass. A delegated hop is checked against the §15
 * chain; a root turn (block / route_down) against the shared limits only. With `route` (route_down) the
 * request is routed, and reserves `route.estimate`, once a shared total reaches its route threshold.
 */
export async function reserveCostSlot(
  services: RuntimeServices,
  scope: CostScope,
  estimate: number,
  route?: { estimate: number },
): Promise<SlotOutcome> {
  const { cost: ledger } = services;
  const config = currentConfig(services);
  if (!scope.tracked || !ledger) return { refused: null, routed: false, reserved: 0, day: 0, month: 0 };
  const chain = [...scope.ancestors, scope.alias];
  const ceilings = scope.delegated ? effectiveCeilings(config, chain) : [];
  const limits = sharedLimits(config.cost);
  const out = await ledger.reserve({
    chain,
    ceilings,
    dailyLimit: limits.day,
    monthlyLimit: limits.month,
    perAgent: scope.perAgent,
    estimate,
    ...(route ? { route: { ...routeThresholds(config.cost), estimate: route.estimate } } : {}),
  });
  if (out.ok) {
    const reserved = Math.max(0, Math.round(out.routed && route ? route.estimate : estimate));
    return { refused: null, routed: out.routed, reserved, day: out.day, month: out.month };
  }
  if (out.limit === 'ceiling')
    return {
      refused: costRefusal.agentCeiling(chain[out.member]!, cents(out.spent), cents(ceilings[out.member]!)),
    };
  const period = out.limit === 'daily' ? 'daily' : 'monthly';
  const [spent, limit] = [dollars(out.spent), dollars(period === 'daily' ? limits.day : limits.month)];
  if (!scope.delegated) return { refused: rootLimitRefusal(period, spent, limit) };
  return {
    refused:
      period === 'daily' ? costRefusal.sharedDaily(spent, limit) : costRefusal.sharedMonthly(spent, limit),
  };
}
