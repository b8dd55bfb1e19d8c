// Prices a model response or a tool call in integer micro-dollars from [cost.rates] (config.md §8.3).
import { modelRateOf, toolRateOf } from '../config/lookup.ts';
import type { CostConfig } from '../config/types.ts';
import type { Logger } from '../core/logger.ts';
import type { ModelResponse } from '../providers/types.ts';

const unpricedWarned = new Set<string>();

/** Tokens × USD-per-million-tokens is exactly micro-dollars. */
export function priceResponse(rates: CostConfig['rates'], res: ModelResponse, logger?: Logger): number {
  const { providerType, model } = res.served;
  const rate = modelRateOf(rates, providerType, model);
  if (!rate) {
    const key = `${providerType}/${model}`;
    // One warning per model per process: a missing rate is a config gap, not a per-request event.
    if (!unpricedWarned.has(key)) {
      unpricedWarned.add(key);
      logger?.warn(
        { provider_type: providerType, model },
        'no cost rate configured for model; recorded at 0',
      );
    }
    return 0;
  }
  return Math.round(
    res.usage.inputTokens * rate.input_per_mtok + res.usage.outputTokens * rate.output_per_mtok,
  );
}

export function priceToolCall(rates: CostConfig['rates'], tool: string): number {
  return Math.round(toolRateOf(rates, tool) * 1_000_000);
}

const DAY_MS = 86_400_000;
/** The day of the last call: a turn asks several times, and formatting the date each time showed in profiles. */
let lastDay: { from: number; to: number; periods: Readonly<{ day: string; month: string }> } | null = null;

/** UTC day and month keys (`2026-09-01`, `2026-09`): the ledger's reset boundaries. */
export function utcPeriods(now: Date): Readonly<{ day: string; month: string }> {
  const t = now.getTime();
  if (lastDay && t >= lastDay.from && t < lastDay.to) return lastDay.periods;
  const iso = now.toISOString(); // throws for an invalid date, as before
  const from = Math.floor(t / DAY_MS) * DAY_MS;
  lastDay = {
    from,
    to: from + DAY_MS,
    periods: Object.freeze({ day: iso.slice(0, 10), month: iso.slice(0, 7) }),
  };
  return lastDay.periods;
}
