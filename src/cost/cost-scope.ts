// Per-hop cost scopes: attribution, the bounded ancestor chain, [cost.enforcement] and the run observer (§15).
import { modelRateOf, providerOf } from '../config/lookup.ts';
import type { BatonConfig, DelegateMode } from '../config/types.ts';
import type { ModelResponse } from '../providers/types.ts';
import type { CostEntry, CostScope } from '../run-contract/cost-contract.ts';
import { currentConfig } from '../run-contract/live-services.ts';
import type { RunContext, RunObserver, RuntimeServices } from '../run-contract/run-context.ts';
import { reserveCostSlot } from './cost-checks.ts';
import { priceResponse, priceToolCall } from './pricing.ts';
import { logRoutedDown, logWarnCrossings, warnIfLimitReached, warnThresholds } from './shared-limits.ts';

export { checkCostCeilings, reserveCostSlot } from './cost-checks.ts';

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

/** A first request's estimate: 1000 input tokens and the provider's max_tokens (else 1024) of output. */
function firstRequestEstimate(run: RunContext, ref: string): number {
  const entry = providerOf(currentConfig(run.services), ref);
  if (!entry?.model) return 0;
  const rate = modelRateOf(currentConfig(run.services).cost.rates, entry.type, entry.model);
  if (!rate) return 0;
  return Math.round(1000 * rate.input_per_mtok + (entry.max_tokens || 1024) * rate.output_per_mtok);
}

/** Thrown by the observer to refuse a model request; the delegate path shows `Agent '<t>' failed: <message>`. */
export class CostRefusalError extends Error {
  override readonly name = 'CostRefusalError';
}

type Spend = Omit<CostEntry, 'alias' | 'ancestors' | 'perAgent' | 'warnAt'>;

/** Records under the scope; the warn_at_percent check rides in the same script. */
async function record(services: RuntimeServices, scope: CostScope, spend: Spend, logger = services.logger) {
  if (!scope.tracked || !services.cost) return;
  const { cost } = currentConfig(services);
  const res = await services.cost.record({
    alias: scope.alias,
    ancestors: scope.ancestors,
    perAgent: scope.perAgent,
    warnAt: warnThresholds(cost),
    ...spend,
  });
  logWarnCrossings(logger, cost, res);
}

/** The live tree's cost per hop (live.md §6): what was just recorded, as a run event of this run. */
function hopSpent(run: RunContext, scope: CostScope, microUsd: number): void {
  if (scope.tracked && run.services.cost)
    run.services.events.emit(run, { type: 'cost', micro_usd: microUsd });
}

/**
 * Records every request and priced tool call of the hop, and applies [cost.enforcement] before each request.
 * `hard` (a delegated hop): every limit refuses, route_down still routes below them. Otherwise (a root turn
 * and its spawn_subagent children): `warn` only logs, without waiting on Redis; `block` and `route_down`
 * check and reserve atomically, as a delegated hop does, against the shared limits only.
 */
export function createCostObserver(scope: CostScope, hard: boolean): RunObserver {
  let services: RuntimeServices | undefined;
  // Per run: spawn_subagent children share their parent's observer and may run concurrently.
  const states = new WeakMap<RunContext, { reserved: number; lastCost: number; recording?: Promise<void> }>();
  const stateOf = (run: RunContext) => {
    const s = states.get(run) ?? { reserved: 0, lastCost: 0 };
    states.set(run, s);
    return s;
  };
  return {
    async beforeModelRequest(run) {
      services = run.services;
      const ledger = run.services.cost;
      if (!scope.tracked || !ledger) return;
      // The last response's record lands first: the next reservation sees its actual price.
      await stateOf(run).recording;
      const { mode, route_down_model: down } = currentConfig(run.services).cost.enforcement;
      if (!hard && mode === 'warn') {
        if (run.routedProviderRef) run.routedProviderRef = undefined;
        warnIfLimitReached(run, ledger);
        return;
      }
      const s = stateOf(run);
      const estimate = Math.max(s.lastCost, firstRequestEstimate(run, run.providerRef));
      const downRef = mode === 'route_down' ? down : undefined;
      const route = downRef
        ? { estimate: Math.max(s.lastCost, firstRequestEstimate(run, downRef)) }
        : undefined;
      const out = await reserveCostSlot(run.services, scope, estimate, route);
      if (out.refused !== null) throw new CostRefusalError(out.refused);
      s.reserved = out.reserved;
      const routed = out.routed ? downRef : undefined;
      if (routed) {
        // Built here (cached) so a bad route_down_model fails before the loop, with the reservation released.
        try {
          run.services.createProvider(routed, run.agentAlias);
        } catch (err) {
          s.reserved = 0;
          await record(run.services, scope, { microUsd: -out.reserved }, run.logger);
          throw err;
        }
      }
      if (run.routedProviderRef !== routed) run.routedProviderRef = routed;
      if (routed) logRoutedDown(run, out, routed);
    },
    async afterModelResponse(run, res: ModelResponse) {
      const s = stateOf(run);
      const price = priceResponse(
        currentConfig(run.services).cost.rates,
        res,
        scope.tracked ? run.logger : undefined,
      );
      s.lastCost = price;
      const held = s.reserved;
      s.reserved = 0;
      // A reserved estimate is already in the totals: settle it to the actual price.
      const spend = {
        microUsd: price - held,
        inputTokens: res.usage.inputTokens,
        outputTokens: res.usage.outputTokens,
      };
      const write = record(run.services, scope, spend, run.logger);
      hopSpent(run, scope, price);
      // A run whose end is joined (a root turn: with its settle) does not wait for the ledger here.
      if (!run.writes) return write;
      s.recording = run.writes.add(write, 'cost not recorded', {
        alias: scope.alias,
        micro_usd: spend.microUsd,
      });
    },
    async modelRequestFailed(run) {
      const s = stateOf(run);
      const held = s.reserved;
      s.reserved = 0;
      if (held !== 0) await record(run.services, scope, { microUsd: -held }, run.logger);
    },
    async toolFinished(name, _success, run) {
      const micros = services ? priceToolCall(currentConfig(services).cost.rates, name) : 0;
      if (services && micros !== 0) {
        await record(services, scope, { microUsd: micros });
        hopSpent(run, scope, micros);
      }
    },
  };
}
