// Builds the ops API's dependencies from one process's config, Redis client and abort bus (for `baton start` / `gateway`).
import type { Redis } from 'ioredis';
import { createApprovalStore } from '../approval/approval-store.ts';
import type { BatonConfig } from '../config/types.ts';
import { liveChannelKeys } from '../config/views.ts';
import type { Logger } from '../core/logger.ts';
import { createTaskList } from '../delegation/task-list.ts';
import type { AbortBus } from '../fleet/abort-bus.ts';
import { createChannelPresence } from '../fleet/channel-presence.ts';
import { createMetricsStore, type MetricsStore } from '../fleet/metrics-store.ts';
import { createRunningTurns } from '../fleet/running-turns.ts';
import { createSessionAbort } from '../fleet/session-abort.ts';
import { createWorkerStatusBoard } from '../fleet/worker-status.ts';
import { keySpaceOf } from '../queue/names.ts';
import { createQueueStats } from '../queue/queue-stats.ts';
import type { ConfigDiagnostics } from './health.ts';
import type { OpsServerDeps } from './ops-context.ts';

export interface OpsDepsOptions {
  config: BatonConfig;
  /** A connected, non-subscriber client (e.g. from `connectRedis`). */
  redis: Redis;
  logger: Logger;
  /** The config `LoadResult` (its diagnostics and droppedSections), or a getter of the one in effect now. */
  load: ConfigDiagnostics | (() => ConfigDiagnostics);
  /** The process's abort bus; the API only publishes on it. */
  abortBus: AbortBus;
  /** Reuse the process's store when it has one; otherwise one is built on `redis`. */
  metrics?: MetricsStore;
  probeTimeoutMs?: number;
}

export function createOpsDeps(o: OpsDepsOptions): OpsServerDeps {
  const { config, redis, logger } = o;
  const prefix = config.redis.prefix;
  const metrics = o.metrics ?? createMetricsStore(redis, prefix, logger);
  const presence = createChannelPresence(redis, prefix, logger);
  const workerStatus = createWorkerStatusBoard(redis, prefix, logger);
  // The channels this deployment starts; each must have a live presence key for /healthz to be ok.
  const expected = liveChannelKeys(config);
  const { load } = o;
  return {
    config,
    redis,
    logger,
    diagnostics: typeof load === 'function' ? load : () => load,
    queues: createQueueStats({
      target: config.redis,
      space: keySpaceOf(config.redis),
      channelKeys: expected,
    }),
    channels: () => presence.states(expected),
    channelHolders: () => presence.holders(expected),
    workers: () => workerStatus.all(),
    abortSession: createSessionAbort(createRunningTurns(redis, keySpaceOf(config.redis), logger), o.abortBus),
    tasks: createTaskList(redis, prefix),
    approvals: createApprovalStore({ redis, prefix, logger, metrics }),
    metrics,
    ...(o.probeTimeoutMs !== undefined ? { probeTimeoutMs: o.probeTimeoutMs } : {}),
  };
}
