// Builds the process-wide RuntimeServices from a loaded config and one Redis connection.
import type { Redis } from 'ioredis';
import type { BatonConfig } from '../config/types.ts';
import { createMetricsStore } from '../control-plane/metrics-store.ts';
import { createTaskRecords } from '../control-plane/task-records.ts';
import { newWorkerId } from '../core/ids.ts';
import type { Logger } from '../core/logger.ts';
import { createCostLedger } from '../cost/ledger.ts';
import { createProviderChain, providerCreateError } from '../providers/index.ts';
import type { ModelProvider } from '../providers/types.ts';
import { createActionBuckets } from '../security/action-buckets.ts';
import { defaultShellSandbox, type ShellSandbox } from '../security/sandbox/shell-sandbox.ts';
import { createHistoryStore } from './history-store.ts';
import type { RuntimeServices } from './run-context.ts';
import { createSessionModelStore } from './session-model.ts';
import { createTreeBudget } from './tree-budget.ts';

export interface ServicesOptions {
  config: BatonConfig;
  redis: Redis;
  logger: Logger;
  env?: Record<string, string | undefined>;
  /** Tests point provider HTTP at fakes through `uri`; this is only for custom fetch wiring. */
  fetch?: typeof fetch;
  /** The shell sandbox; default: bubblewrap as `bwrap` on PATH. */
  sandbox?: ShellSandbox;
}

export function createRuntimeServices(opts: ServicesOptions): RuntimeServices {
  const { config, redis, logger } = opts;
  const prefix = config.redis.prefix;
  const chains = new Map<string, ModelProvider>();
  return {
    config,
    redis,
    logger,
    workerId: newWorkerId(),
    history: createHistoryStore(redis, prefix),
    sessionModels: createSessionModelStore(redis, prefix),
    treeBudget: createTreeBudget(redis, prefix),
    buckets: createActionBuckets(redis, prefix),
    tasks: createTaskRecords(redis, prefix),
    metrics: createMetricsStore(redis, prefix, logger),
    cost: createCostLedger(redis, prefix),
    sandbox: opts.sandbox ?? defaultShellSandbox(),
    createProvider(ref, agentAlias) {
      // Chains hold no per-request state and the config of a process is fixed: build each once.
      const key = `${ref}\u0000${agentAlias}`;
      const cached = chains.get(key);
      if (cached) return cached;
      try {
        const chain = createProviderChain({
          ref,
          agentAlias,
          providers: config.providers,
          reliability: config.reliability,
          env: opts.env ?? process.env,
          logger,
          ...(opts.fetch ? { fetch: opts.fetch } : {}),
        });
        chains.set(key, chain);
        return chain;
      } catch (err) {
        throw providerCreateError(ref.split('.')[0] ?? ref, agentAlias, err);
      }
    },
  };
}
