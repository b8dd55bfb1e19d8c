// Shape of [cost], [cost.enforcement] and [cost.rates] (spec/config.md §8).
import type { z } from 'zod';
import { bool, enumOf, intBetween, num, str, table, tableOf } from './schema-kit.ts';

const modelRateSchema = table({
  input_per_mtok: num().default(0),
  output_per_mtok: num().default(0),
  cached_input_per_mtok: num().default(0),
});

const toolRateSchema = table({ per_call: num().default(0) });

export const costSchema = table({
  enabled: bool().default(true),
  daily_limit_usd: num().default(10),
  monthly_limit_usd: num().default(100),
  warn_at_percent: intBetween(0, 100).default(80),
  allow_override: bool().default(false),
  track_per_agent: bool().default(true),
  enforcement: table({
    mode: enumOf(['warn', 'block', 'route_down']).default('warn'),
    route_down_model: str().optional(),
    reserve_percent: intBetween(0, 100).default(10),
  }).prefault({}),
  rates: table({
    /** `providers.models.<type>."<model id>"` */
    providers: table({ models: tableOf(tableOf(modelRateSchema)).default({}) }).prefault({}),
    tools: tableOf(toolRateSchema).default({}),
  }).prefault({}),
});

export type CostShape = z.output<typeof costSchema>;
