// Which config a run reads: the turn's snapshot (tools, roster, policy) or the live one (cost limits, prices).
import type { BatonConfig } from '../config/types.ts';
import type { RuntimeServices } from './run-context.ts';

/**
 * The services a new turn (root, cron or background job) runs with: `config` fixed to the config current at
 * its start, so a reload reaches the next turn and never one already running (config.md "Reload").
 */
export function turnServices(services: RuntimeServices): RuntimeServices {
  const live = services.liveConfig;
  if (!live) return services;
  const config = live.current();
  return config === services.config ? services : { ...services, config };
}

/** The config in effect now: `[cost]` limits and `[cost.rates]` prices apply at each check (delegate.md §15). */
export function currentConfig(services: Pick<RuntimeServices, 'config' | 'liveConfig'>): BatonConfig {
  return services.liveConfig?.current() ?? services.config;
}
