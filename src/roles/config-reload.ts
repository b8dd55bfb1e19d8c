// Wires config reload into a role process: SIGHUP and deployment-wide requests (Redis pub/sub) both re-read
// this process's own config file into its live config (config.md "Reload").
import type { Redis } from 'ioredis';
import type { LiveConfig } from '../config/live-config.ts';
import type { LoadResult } from '../config/load.ts';
import { createConfigReloader } from '../config/reloader.ts';
import { newWorkerId } from '../core/ids.ts';
import type { Logger } from '../core/logger.ts';
import { createRedis } from '../core/redis.ts';
import { listenForReloads } from '../fleet/reload-bus.ts';
import { reloadRequested } from './role-messages.ts';
import type { StopSignals } from './stop-signals.ts';

export interface ConfigReloadOptions {
  role: string;
  configPath: string;
  env: Record<string, string | undefined>;
  live: LiveConfig;
  logger: Logger;
  redis: Redis;
  signals: Pick<StopSignals, 'onReload'>;
  say(line: string): void;
  /** Told each applied load (so /healthz reports the diagnostics of the config in effect). */
  onApplied?: (loaded: LoadResult) => void;
}

/** Starts listening; resolves once subscribed (a `baton reload` from then on reaches this process). */
export async function startConfigReload(o: ConfigReloadOptions): Promise<{ close(): Promise<void> }> {
  const reloader = createConfigReloader({
    path: o.configPath,
    env: o.env,
    live: o.live,
    logger: o.logger,
    ...(o.onApplied ? { onApplied: o.onApplied } : {}),
  });
  o.signals.onReload((signal) => {
    o.say(reloadRequested(signal, o.configPath));
    reloader.reload().catch((err: unknown) => o.logger.warn({ err: String(err) }, 'config reload failed'));
  });
  const target = o.live.current().redis;
  const { prefix } = target;
  const subscriber = createRedis(target);
  subscriber.on('error', () => {});
  const stop = await listenForReloads({
    subscriber,
    publisher: o.redis,
    prefix,
    process: newWorkerId(),
    role: o.role,
    logger: o.logger,
    async reload() {
      const r = await reloader.reload();
      return { ok: r.ok, changed: r.changed, restart_only: r.restartOnly, errors: r.errors };
    },
  });
  return {
    async close() {
      await stop();
      subscriber.disconnect();
    },
  };
}
