// Runs a long-lived role (start, gateway, worker) until SIGTERM/SIGINT, then shuts it down within its grace.
// SIGHUP and `baton reload` re-read the config into the live config (config-reload.ts).
import { loadConfigFile } from '../config/index.ts';
import { createLiveConfig } from '../config/live-config.ts';
import { createLogger } from '../core/logger.ts';
import { connectRedisOrExplain } from '../core/redis.ts';
import type { ConfigDiagnostics } from '../ops-api/health.ts';
import { createIdleHints } from '../queue/idle-hints.ts';
import { checkKeyLayout, LayoutMismatchError } from '../queue/layout-record.ts';
import { keySpaceOf } from '../queue/names.ts';
import { createChannelAdapters } from './channel-adapters.ts';
import { startConfigReload } from './config-reload.ts';
import { startGatewayRole } from './gateway-role.ts';
import { compactAfterStart } from './heap-compact.ts';
import { boundHeapGrowth } from './heap-growth.ts';
import { shuttingDown, stopped } from './role-messages.ts';
import { startupSummary } from './startup-summary.ts';
import { type StopSignals, watchStopSignals } from './stop-signals.ts';
import { type Role, startWorkerRole } from './worker-role.ts';
import { boundYoungGeneration } from './young-generation.ts';

export type RoleName = 'start' | 'gateway' | 'worker';

export interface RoleIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: Record<string, string | undefined>;
  /** Resolves with a reason when the process is asked to stop (the first SIGTERM/SIGINT by default). */
  stopSignal?: Promise<string>;
}

/** How long a Ctrl-C under npm waits for npm's forwarded copy of the signal once the role has stopped. */
const NPM_FORWARD_WAIT_MS = 2000;

/** The stop signal that ended the role, when one did (it is already settled by the time the role returns). */
function firstStop(signals: StopSignals): Promise<string | null> {
  return Promise.race([signals.stopped, Promise.resolve(null)]);
}

export async function runRole(role: RoleName, configPath: string, io: RoleIo): Promise<number> {
  // Installed before anything starts: a signal during startup stops the role once it is up, never midway.
  const signals = watchStopSignals(io.out);
  try {
    const code = await runUntilStopped(role, configPath, io, io.stopSignal ?? signals.stopped, signals);
    // Ctrl-C under npm arrives twice (the terminal's and npm's forward). On a busy machine npm's copy can come
    // after the shutdown, in the last milliseconds of teardown, where Node's default kills the process by
    // SIGINT and npm reports a failure: wait (briefly) for that copy before returning.
    if (io.env.npm_lifecycle_event !== undefined && (await firstStop(signals)) === 'SIGINT') {
      await signals.received('SIGINT', 2, NPM_FORWARD_WAIT_MS);
    }
    return code;
  } finally {
    // The stop handlers stay while the process drains: Ctrl-C under `npm start` arrives twice (the terminal's and
    // npm's), and a late copy would otherwise meet Node's default and kill the process by SIGINT, which npm then
    // reports as a failure. (Node restores the default for its last few milliseconds of teardown.) Only reloads
    // end here.
    signals.onReload(() => {});
  }
}

async function runUntilStopped(
  role: RoleName,
  configPath: string,
  io: RoleIo,
  stopSignal: Promise<string>,
  signals: Pick<StopSignals, 'onReload'>,
): Promise<number> {
  const loaded = await loadConfigFile(configPath, io.env);
  if (loaded.fatal || !loaded.config) {
    for (const d of loaded.diagnostics) io.err(d.message);
    return 1;
  }
  const config = loaded.config;
  // A long-running process: bound the garbage a burst may leave in the heap (heap-growth.ts).
  boundHeapGrowth(io.env);
  boundYoungGeneration(io.env); // and what a burst leaves in the young generation (young-generation.ts)
  const logger = createLogger({ secrets: config.secrets });
  // Resilient loading: a bad section is dropped and the rest starts, so operators can repair the file.
  for (const d of loaded.diagnostics)
    (d.severity === 'error' ? logger.error : logger.warn).call(logger, d.message);

  const redis = await connectRedisOrExplain(config.redis, io.err);
  if (!redis) return 1;
  const onRedisError = (err: Error) =>
    logger.warn({ err: err.message }, 'redis connection problem; retrying');
  redis.on('error', onRedisError);
  // Before any queue is touched: another partition count than the one that queued the pending work would split
  // its conversations over two queues (layout-record.ts).
  const channelKeys = Object.values(config.channels).map((c) => c.key);
  try {
    await checkKeyLayout(redis, keySpaceOf(config.redis), channelKeys, logger);
  } catch (e) {
    if (!(e instanceof LayoutMismatchError)) throw e;
    io.err(`error: ${e.message}`);
    redis.disconnect();
    return 1;
  }

  // Both roles in this process: the worker gets its own command connection. On a shared one the two roles'
  // writes take turns with Redis (this process idle while Redis works, and back); on two, Redis runs one
  // role's batch while this process handles the other's replies (+5 points of `npm run bench` throughput).
  const workerRedis = role === 'start' ? await connectRedisOrExplain(config.redis, io.err) : redis;
  if (!workerRedis) {
    redis.disconnect();
    return 1;
  }
  if (workerRedis !== redis) workerRedis.on('error', onRedisError);

  const live = createLiveConfig(config);
  // What /healthz reports: the diagnostics of the load in effect, replaced by each applied reload.
  let inEffect: ConfigDiagnostics = loaded;
  const adapters = role === 'worker' ? [] : await createChannelAdapters(config, logger);
  const roles: Role[] = [];
  let opsUrl: string | null = null;
  // Both roles in this process: the worker tells the gateway which conversations it left idle (idle-hints.ts).
  const idleHints = role === 'start' ? createIdleHints() : undefined;
  if (role !== 'worker') {
    const gateway = await startGatewayRole({
      ...(idleHints ? { idleHints } : {}),
      config,
      live,
      logger,
      redis,
      adapters,
      ops: () => inEffect,
      opsPages: { configPath },
    });
    opsUrl = gateway.opsUrl;
    roles.push(gateway);
  }
  if (role !== 'gateway') {
    // BATON_TURN_LOCK_MS tunes crash failover (tests use a short one); the default suits production.
    const lockMs = Number(io.env.BATON_TURN_LOCK_MS) || undefined;
    roles.push(
      await startWorkerRole({
        ...(idleHints ? { idleHints } : {}),
        config,
        live,
        logger,
        redis: workerRedis,
        env: io.env,
        ...(lockMs ? { lockDurationMs: lockMs } : {}),
      }),
    );
  }
  const reload = await startConfigReload({
    role,
    configPath,
    env: io.env,
    live,
    logger,
    redis,
    signals,
    say: io.out,
    onApplied: (next) => {
      inEffect = next;
    },
  });
  // Started: release what loading left behind before the process settles into its work (heap-compact.ts).
  compactAfterStart(io.env);
  const label = role === 'start' ? 'gateway + worker' : role;
  for (const line of startupSummary(
    config,
    label,
    adapters.map((a) => a.key),
    loaded.droppedSections,
    role === 'gateway' ? undefined : io.env,
    opsUrl,
  ))
    io.out(line);

  const reason = await stopSignal;
  io.out(shuttingDown(reason, config.worker.shutdown_grace_secs));
  const graceMs = config.worker.shutdown_grace_secs * 1000;
  await reload.close();
  for (const r of roles.reverse()) await r.close(graceMs);
  logger.flush();
  if (workerRedis !== redis) await workerRedis.quit().catch(() => workerRedis.disconnect());
  await redis.quit().catch(() => redis.disconnect());
  io.out(stopped);
  return 0;
}
