// Runs a long-lived role (start, gateway, worker) until SIGTERM/SIGINT, then shuts it down within its grace.
import { loadConfigFile } from '../config/index.ts';
import { createLogger } from '../core/logger.ts';
import { connectRedisOrExplain } from '../core/redis.ts';
import { createChannelAdapters } from './channel-adapters.ts';
import { startGatewayRole } from './gateway-role.ts';
import { startupSummary } from './startup-summary.ts';
import { type Role, startWorkerRole } from './worker-role.ts';

export type RoleName = 'start' | 'gateway' | 'worker';

export interface RoleIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: Record<string, string | undefined>;
  /** Resolves when the process is asked to stop (SIGTERM/SIGINT by default). */
  stopSignal?: Promise<void>;
}

function onProcessSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
}

export async function runRole(role: RoleName, configPath: string, io: RoleIo): Promise<number> {
  const loaded = await loadConfigFile(configPath, io.env);
  if (loaded.fatal || !loaded.config) {
    for (const d of loaded.diagnostics) io.err(d.message);
    return 1;
  }
  const config = loaded.config;
  const logger = createLogger({ secrets: config.secrets });
  // Resilient loading: a bad section is dropped and the rest starts, so operators can repair the file.
  for (const d of loaded.diagnostics)
    (d.severity === 'error' ? logger.error : logger.warn).call(logger, d.message);

  const redis = await connectRedisOrExplain(config.redis.url, io.err);
  if (!redis) return 1;
  redis.on('error', (err) => logger.warn({ err: err.message }, 'redis connection problem; retrying'));

  const adapters = role === 'worker' ? [] : createChannelAdapters(config, logger);
  const roles: Role[] = [];
  if (role !== 'worker') roles.push(await startGatewayRole({ config, logger, redis, adapters, ops: loaded }));
  if (role !== 'gateway') {
    // BATON_TURN_LOCK_MS tunes crash failover (tests use a short one); the default suits production.
    const lockMs = Number(io.env.BATON_TURN_LOCK_MS) || undefined;
    roles.push(
      await startWorkerRole({
        config,
        logger,
        redis,
        env: io.env,
        ...(lockMs ? { lockDurationMs: lockMs } : {}),
      }),
    );
  }
  const label = role === 'start' ? 'gateway + worker' : role;
  for (const line of startupSummary(
    config,
    label,
    adapters.map((a) => a.key),
    loaded.droppedSections,
  ))
    io.out(line);

  await (io.stopSignal ?? onProcessSignal());
  io.out('baton: shutting down');
  const graceMs = config.worker.shutdown_grace_secs * 1000;
  for (const r of roles.reverse()) await r.close(graceMs);
  logger.flush();
  await redis.quit().catch(() => redis.disconnect());
  return 0;
}
