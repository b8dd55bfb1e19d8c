// Re-reads this process's config file and applies it to the live config, or rejects it whole with every
// diagnostic logged (config.md "Reload"). Restart-only keys keep their running values, one warning each.
import type { Logger } from '../core/logger.ts';
import { changedPaths, keepRestartOnly } from './config-diff.ts';
import type { LiveConfig } from './live-config.ts';
import { type LoadResult, loadConfigFile } from './load.ts';
import { reloadApplied, reloadRejected, reloadRestartOnly } from './reload-messages.ts';

export interface ReloadOutcome {
  ok: boolean;
  /** TOML paths the reload changed (empty when rejected). */
  changed: string[];
  /** TOML paths whose change waits for a restart. */
  restartOnly: string[];
  /** The error diagnostics that rejected the file (empty when applied). */
  errors: string[];
}

export interface ConfigReloaderOptions {
  path: string;
  env: Record<string, string | undefined>;
  live: LiveConfig;
  logger: Logger;
  /** Told the load a reload applied (its diagnostics are now those of the config in effect). */
  onApplied?: (loaded: LoadResult) => void;
  /** The loader; default: the real one (the same steps as `baton config check`). */
  load?: (path: string, env: Record<string, string | undefined>) => Promise<LoadResult>;
}

export interface ConfigReloader {
  /** Reloads from the file; concurrent calls run one after another. */
  reload(): Promise<ReloadOutcome>;
}

export function createConfigReloader(o: ConfigReloaderOptions): ConfigReloader {
  const load = o.load ?? loadConfigFile;
  let last: Promise<unknown> = Promise.resolve();

  async function reloadOnce(): Promise<ReloadOutcome> {
    const loaded = await load(o.path, o.env);
    const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
    for (const d of loaded.diagnostics) {
      const fields = { config_path: o.path, toml_path: d.path, severity: d.severity };
      if (d.severity === 'error') o.logger.error(fields, d.message);
      else o.logger.warn(fields, d.message);
    }
    if (loaded.fatal || !loaded.config || errors.length > 0) {
      const count = Math.max(errors.length, 1);
      o.logger.error({ config_path: o.path, errors: count }, reloadRejected(o.path, count));
      return { ok: false, changed: [], restartOnly: [], errors: errors.map((d) => d.message) };
    }
    const previous = o.live.current();
    const kept = keepRestartOnly(previous, loaded.config);
    for (const path of kept.paths)
      o.logger.warn({ config_path: o.path, toml_path: path }, reloadRestartOnly(path));
    const changed = changedPaths(previous, kept.config);
    o.live.replace(kept.config);
    o.onApplied?.(loaded);
    o.logger.info({ config_path: o.path, changed }, reloadApplied(o.path, changed));
    return { ok: true, changed, restartOnly: kept.paths, errors: [] };
  }

  return {
    reload() {
      const next = last.then(reloadOnce, reloadOnce);
      last = next.catch(() => {});
      return next;
    },
  };
}
