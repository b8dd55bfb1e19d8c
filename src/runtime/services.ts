// Builds the process-wide RuntimeServices from a loaded config and one Redis connection; the tool-set builder
// is wired here because agent/ (the loop) sits below tools/ (the tools it runs).
import type { Redis } from 'ioredis';
import { secretSet } from '../config/credentials.ts';
import type { BatonConfig } from '../config/types.ts';
import { createMetricsStore } from '../control-plane/metrics-store.ts';
import { createTaskRecords } from '../control-plane/task-records.ts';
import { createTreeBudget } from '../control-plane/tree-budget.ts';
import { newWorkerId } from '../core/ids.ts';
import type { Logger } from '../core/logger.ts';
import { createTextRedactor } from '../core/redact.ts';
import { createCostLedger } from '../cost/ledger.ts';
import { createProviderChain, providerCreateError } from '../providers/index.ts';
import type { ModelProvider } from '../providers/types.ts';
import type { RuntimeServices } from '../run/run-context.ts';
import { createActionBuckets } from '../security/action-buckets.ts';
import { defaultShellSandbox, type ShellSandbox } from '../security/sandbox/shell-sandbox.ts';
import { createHistoryStore } from '../session/history-store.ts';
import { createSessionModelStore } from '../session/session-model.ts';
import { buildToolSet } from '../tools/tool-set.ts';

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
  const env = opts.env ?? process.env;
  // The same function the provider chain takes its keys from, with the same env: the key sent is redacted.
  const redact = createTextRedactor(secretSet(config, env, config.secrets));
  return {
    config,
    redis,
    logger,
    workerId: newWorkerId(),
    redact,
    history: createHistoryStore(redis, prefix, logger),
    sessionModels: createSessionModelStore(redis, prefix),
    treeBudget: createTreeBudget(redis, prefix, logger),
    buckets: createActionBuckets(redis, prefix),
    tasks: createTaskRecords(redis, prefix, logger),
    metrics: createMetricsStore(redis, prefix, logger),
    cost: createCostLedger(redis, prefix, logger),
    buildToolSet,
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
          env,
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
