// Builds the process-wide RuntimeServices from a loaded config and one Redis connection; the tool-set builder
// is wired here because agent/ (the loop) sits below tools/ (the tools it runs).
import type { Redis } from 'ioredis';
import { secretSet } from '../config/credentials.ts';
import type { LiveConfig } from '../config/live-config.ts';
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
  /** The reloadable config: turns snapshot it, providers and redaction follow it; absent: `config` is fixed. */
  live?: LiveConfig;
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
  // Secrets of every config this process ran with: a turn started before a reload may still hold an old one.
  const secrets = new Set<string>();
  const redactorOf = (c: BatonConfig) => {
    for (const s of secretSet(c, env, c.secrets)) secrets.add(s);
    return createTextRedactor([...secrets]);
  };
  let redactNow = redactorOf(config);
  // A reload may change providers and credentials: chains are rebuilt from the new config on next use.
  opts.live?.onChange((next) => {
    chains.clear();
    redactNow = redactorOf(next);
  });
  const redact = (text: string) => redactNow(text);
  return {
    config,
    ...(opts.live ? { liveConfig: opts.live } : {}),
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
      // Chains hold no per-request state: build each once per config.
      const key = `${ref}\u0000${agentAlias}`;
      const cached = chains.get(key);
      if (cached) return cached;
      try {
        const chain = createProviderChain({
          ref,
          agentAlias,
          providers: (opts.live?.current() ?? config).providers,
          reliability: (opts.live?.current() ?? config).reliability,
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
