// Per-hop cost scopes: attribution, the bounded ancestor chain, the ordered checks and the run observer (§15).
import type { RunContext, RunObserver, RuntimeServices } from '../agent/run-context.ts';
import type { BatonConfig, DelegateMode } from '../config/types.ts';
import { runtimeProfileFor } from '../config/views.ts';
import type { ModelResponse } from '../providers/types.ts';
import { costRefusal } from '../tools/delegate/messages.ts';
import { priceResponse, priceToolCall } from './pricing.ts';

export interface CostScope {
  /** Decided once at the root: a reload can neither switch tracking off nor re-attribute mid-tree. */
  tracked: boolean;
  perAgent: boolean;
  /** Ledger attribution of this hop. */
  alias: string;
  /** Bounded ancestors of this hop, root first (empty for a root or an independent hop). */
  ancestors: readonly string[];
  /** Inside a delegated sub-loop every limit is hard, whatever [cost.enforcement] says. */
  delegated: boolean;
}

export function rootCostScope(config: BatonConfig, alias: string): CostScope {
  return {
    tracked: config.cost.enabled,
    perAgent: config.cost.track_per_agent,
    alias,
    ancestors: [],
    delegated: false,
  };
}

/** The scope of a delegated hop: bounded hops extend the chain, independent hops start a new one. */
export function hopCostScope(parent: CostScope, target: string, mode: DelegateMode): CostScope {
  return {
    ...parent,
    alias: target,
    ancestors: mode === 'bounded' ? [...parent.ancestors, parent.alias] : [],
    delegated: true,
  };
}

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
const dollars = (micros: number) => (micros / 1_000_000).toFixed(2);

/**
 * The §15 checks in order; returns the refusal (the part after `Agent '<t>' failed: `) or null.
 * Limits and prices come from the current config, so a reload applies at the next check.
 */
export async function checkCostCeilings(services: RuntimeServices, scope: CostScope): Promise<string | null> {
  const { config, cost: ledger } = services;
  if (!scope.tracked || !ledger) return null;
  const chain = [...scope.ancestors, scope.alias];
  const snap = await ledger.read(chain);
  const dailyLimit = Math.round(config.cost.daily_limit_usd * 1_000_000);
  if (snap.day >= dailyLimit) return costRefusal.sharedDaily(dollars(snap.day), dollars(dailyLimit));

  const effective = effectiveCeilings(config, chain);
  const spentOf = (a: string, withDescendants: boolean) => {
    if (!scope.perAgent) return snap.day;
    const row = snap.agents.get(a) ?? { own: 0, descendants: 0 };
    return withDescendants ? row.own + row.descendants : row.own;
  };
  const hop = chain.length - 1;
  const own = spentOf(scope.alias, false);
  if (own >= effective[hop]!)
    return costRefusal.agentCeiling(scope.alias, cents(own), cents(effective[hop]!));
  for (let i = 0; i < hop; i++) {
    const a = chain[i]!;
    const spent = spentOf(a, true);
    if (spent >= effective[i]!) return costRefusal.agentCeiling(a, cents(spent), cents(effective[i]!));
  }
  const monthlyLimit = Math.round(config.cost.monthly_limit_usd * 1_000_000);
  if (snap.month >= monthlyLimit)
    return costRefusal.sharedMonthly(dollars(snap.month), dollars(monthlyLimit));
  return null;
}

/**
 * The same checks as checkCostCeilings, made atomically together with a reservation of `estimate`, so
 * concurrent requests of one chain (in any worker) cannot all pass a check only one of them may pass.
 */
export async function reserveCostSlot(
  services: RuntimeServices,
  scope: CostScope,
  estimate: number,
): Promise<string | null> {
  const { config, cost: ledger } = services;
  if (!scope.tracked || !ledger) return null;
  const chain = [...scope.ancestors, scope.alias];
  const ceilings = effectiveCeilings(config, chain);
  const dailyLimit = Math.round(config.cost.daily_limit_usd * 1_000_000);
  const monthlyLimit = Math.round(config.cost.monthly_limit_usd * 1_000_000);
  const out = await ledger.reserve({
    chain,
    ceilings,
    dailyLimit,
    monthlyLimit,
    perAgent: scope.perAgent,
    estimate,
  });
  if (out.ok) return null;
  if (out.limit === 'daily') return costRefusal.sharedDaily(dollars(out.spent), dollars(dailyLimit));
  if (out.limit === 'monthly') return costRefusal.sharedMonthly(dollars(out.spent), dollars(monthlyLimit));
  return costRefusal.agentCeiling(chain[out.member]!, cents(out.spent), cents(ceilings[out.member]!));
}

/** A first request's estimate: 1000 input tokens and the provider's max_tokens (else 1024) of output. */
function firstRequestEstimate(run: RunContext): number {
  const entry = run.services.config.providers[run.providerRef];
  if (!entry?.model) return 0;
  const rate = run.services.config.cost.rates.models[entry.type]?.[entry.model];
  if (!rate) return 0;
  return Math.round(1000 * rate.input_per_mtok + (entry.max_tokens || 1024) * rate.output_per_mtok);
}

/** Thrown by the observer to refuse a model request; the delegate path shows `Agent '<t>' failed: <message>`. */
export class CostRefusalError extends Error {
  override readonly name = 'CostRefusalError';
}

async function recordResponse(
  run: RunContext,
  scope: CostScope,
  res: ModelResponse,
  reserved = 0,
): Promise<void> {
  const { services } = run;
  if (!scope.tracked || !services.cost) return;
  await services.cost.record({
    alias: scope.alias,
    ancestors: scope.ancestors,
    perAgent: scope.perAgent,
    // A reserved estimate is already in the totals: settle it to the actual price.
    microUsd: priceResponse(services.config.cost.rates, res, run.logger) - reserved,
    inputTokens: res.usage.inputTokens,
    outputTokens: res.usage.outputTokens,
  });
}

/** Records every request and priced tool call of the hop; `enforce` adds the hard checks of a delegated hop. */
export function createCostObserver(scope: CostScope, enforce: boolean): RunObserver {
  let services: RuntimeServices | undefined;
  let reserved = 0;
  let lastCost = 0;
  return {
    async beforeModelRequest(run) {
      services = run.services;
      if (!enforce) return;
      const estimate = Math.max(lastCost, firstRequestEstimate(run));
      const refusal = await reserveCostSlot(run.services, scope, estimate);
      if (refusal) throw new CostRefusalError(refusal);
      reserved = scope.tracked ? estimate : 0;
    },
    async afterModelResponse(run, res) {
      lastCost = priceResponse(run.services.config.cost.rates, res);
      const held = reserved;
      reserved = 0;
      await recordResponse(run, scope, res, held);
    },
    async modelRequestFailed(run) {
      const held = reserved;
      reserved = 0;
      if (held === 0 || !run.services.cost) return;
      await run.services.cost.record({
        alias: scope.alias,
        ancestors: scope.ancestors,
        perAgent: scope.perAgent,
        microUsd: -held,
      });
    },
    async toolFinished(name) {
      const micros = services ? priceToolCall(services.config.cost.rates, name) : 0;
      if (!services?.cost || !scope.tracked || micros === 0) return;
      await services.cost.record({
        alias: scope.alias,
        ancestors: scope.ancestors,
        perAgent: scope.perAgent,
        microUsd: micros,
      });
    },
  };
}
