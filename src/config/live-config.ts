// The config a process runs with, replaceable by a reload (config.md "Reload"); readers choose when to look.
import type { BatonConfig } from './types.ts';

export type ConfigChangeListener = (next: BatonConfig, previous: BatonConfig) => void;

export interface LiveConfig {
  /** The config in effect now. A turn reads it once at its start and keeps that snapshot. */
  current(): BatonConfig;
  /** Makes `next` current and tells every listener (in registration order). */
  replace(next: BatonConfig): void;
  /** Called after each replace; returns the unsubscribe function. */
  onChange(listener: ConfigChangeListener): () => void;
}

export function createLiveConfig(initial: BatonConfig): LiveConfig {
  let config = initial;
  const listeners = new Set<ConfigChangeListener>();
  return {
    current: () => config,
    replace(next) {
      const previous = config;
      config = next;
      for (const listener of [...listeners]) listener(next, previous);
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
