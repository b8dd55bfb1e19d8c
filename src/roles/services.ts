// The composition root of RuntimeServices: built once per process from a loaded config, one Redis connection
// and what the role wires in (approvals, scheduler, background queue), then frozen. The tool-set builder is
// wired here because agent/ (the loop) sits below tools/ (the tools it runs).
import type { Redis } from 'ioredis';
import { secretSet } from '../config/credentials.ts';
import type { LiveConfig } from '../config/live-config.ts';
import type { BatonConfig } from '../config/types.ts';
import { newWorkerId } from '../core/ids.ts';
import type { Logger } from '../core/logger.ts';
import { createTextRedactor } from '../core/redact.ts';
import { createCostLedger } from '../cost/ledger.ts';
import type { CronControl } from '../cron/types.ts';
import type { DelegationServices } from '../delegation/delegation-services.ts';
import { createTaskRecords } from '../delegation/task-records.ts';
import { createTreeBudget } from '../delegation/tree-budget.ts';
import { createMetricsStore, type MetricsStore } from '../fleet/metrics-store.ts';
import { createRunEventLog } from '../live/run-event-log.ts';
import { createProviderChain, providerCreateError } from '../providers/index.ts';
import type { ModelProvider } from '../providers/types.ts';
import { keySpaceOf } from '../queue/names.ts';
import { type ApproverPaths, NO_APPROVER_PATHS, type RuntimeServices } from '../run-contract/run-context.ts';
import type { RunEventSink } from '../run-contract/run-events.ts';
import type { BuildToolSet } from '../run-contract/tool-registry.ts';
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
  /** The shell sandbox; default: bubblewrap as `bwrap` on PATH. */
  sandbox?: ShellSandbox | undefined;
  /** Replaces provider construction (benchmarks use an in-process instant model). */
  createProvider?: RuntimeServices['createProvider'] | undefined;
  /** Replaces the tool-set builder (the approval benchmark adds a tool that timestamps its start). */
  buildToolSet?: BuildToolSet | undefined;
  /** Default: a Redis-backed metrics store of this prefix. */
  metrics?: MetricsStore | undefined;
  /** Default: no approver path for any run. */
  approvals?: ApproverPaths | undefined;
  /** Default: none (no cron tools). */
  cron?: CronControl | null | undefined;
  /** Default: none (background delegation unavailable). */
  delegation?: DelegationServices | null | undefined;
  /** Default: the Redis run-event log of this prefix. */
  events?: RunEventSink | undefined;
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
  const createProvider = (ref: string, agentAlias: string): ModelProvider => {
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
      });
      chains.set(key, chain);
      return chain;
    } catch (err) {
      throw providerCreateError(ref.split('.')[0] ?? ref, agentAlias, err);
    }
  };
  return Object.freeze({
    config,
    liveConfig: opts.live ?? null,
    redis,
    logger,
    workerId: newWorkerId(),
    redact,
    history: createHistoryStore(
      redis,
      keySpaceOf(config.redis),
      logger,
      config.worker.transcript_max_entries,
    ),
    sessionModels: createSessionModelStore(redis, prefix),
    treeBudget: createTreeBudget(redis, prefix, logger),
    buckets: createActionBuckets(redis, prefix),
    tasks: createTaskRecords(redis, prefix, logger),
    metrics: opts.metrics ?? createMetricsStore(redis, prefix, logger),
    cost: createCostLedger(redis, prefix, logger),
    buildToolSet: opts.buildToolSet ?? buildToolSet,
    sandbox: opts.sandbox ?? defaultShellSandbox(),
    createProvider: opts.createProvider ?? createProvider,
    approvals: opts.approvals ?? NO_APPROVER_PATHS,
    cron: opts.cron ?? null,
    delegation: opts.delegation ?? null,
    events: opts.events ?? createRunEventLog(redis, keySpaceOf(config.redis), logger),
  });
}
