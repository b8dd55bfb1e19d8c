// Test builder for a RunContext that tool tests can run in, with a recording fake approval gate and buckets.
import type { ApprovalGate, GateOutcome } from '../../src/approval/types.ts';
import { runtimeProfileFor } from '../../src/config/lookup.ts';
import type { BatonConfig } from '../../src/config/types.ts';
import { createSilentLogger } from '../../src/core/logger.ts';
import { createTextRedactor } from '../../src/core/redact.ts';
import { NO_METRICS } from '../../src/fleet/metrics-store.ts';
import {
  NO_APPROVER_PATHS,
  type RunContext,
  type RuntimeServices,
} from '../../src/run-contract/run-context.ts';
import { NO_RUN_EVENTS } from '../../src/run-contract/run-events.ts';
import type { ActionBuckets } from '../../src/security/action-buckets.ts';
import { buildSecurityPolicy } from '../../src/security/policy.ts';
import { defaultShellSandbox } from '../../src/security/sandbox/shell-sandbox.ts';
import type { SecurityPolicy } from '../../src/security/types.ts';
import { buildToolSet } from '../../src/tools/tool-set.ts';

export interface FakeGate extends ApprovalGate {
  checks: { tool: string; args: unknown }[];
  asks: { tool: string; args: unknown }[];
}

/** An in-process ApprovalGate answering every question with `outcome`, recording what it was asked. */
export function createFakeGate(kind: GateOutcome['kind'] = 'run'): FakeGate {
  const outcome: GateOutcome = kind === 'denied_by_runtime' ? { kind, reason: 'no_approver' } : { kind };
  const checks: FakeGate['checks'] = [];
  const asks: FakeGate['asks'] = [];
  return {
    checks,
    asks,
    async check(tool, args) {
      checks.push({ tool, args });
      return outcome;
    },
    async askForCommand(tool, args) {
      asks.push({ tool, args });
      return outcome;
    },
  };
}

export interface MemoryBuckets extends ActionBuckets {
  recorded: Map<string, number>;
}

/** In-memory ActionBuckets (no sliding window) for tool tests; the Redis one has its own integration test. */
export function createMemoryBuckets(): MemoryBuckets {
  const recorded = new Map<string, number>();
  const keyOf = (owner: string, sender: string) => `bucket:${owner}:${sender}`;
  return {
    recorded,
    keyOf,
    async tryRecord(owner, sender, limit) {
      const n = recorded.get(keyOf(owner, sender)) ?? 0;
      if (!(limit > 0) || n >= limit) return false;
      recorded.set(keyOf(owner, sender), n + 1);
      return true;
    },
    async isExhausted(owner, sender, limit) {
      return !(limit > 0) || (recorded.get(keyOf(owner, sender)) ?? 0) >= limit;
    },
  };
}

/** A service the test does not expect to be used: any property access fails loudly. */
function unavailable<T extends object>(name: string): T {
  const target: T = Object.create(null);
  return new Proxy(target, {
    get(_t, prop) {
      if (prop === 'then' || typeof prop === 'symbol') return undefined;
      throw new Error(`test run context: services.${name}.${String(prop)} is not available in this test`);
    },
  });
}

export interface RunContextOptions {
  config: BatonConfig;
  agentAlias: string;
  policy?: SecurityPolicy;
  gate?: ApprovalGate;
  buckets?: ActionBuckets;
  memoryAllowlist?: string[];
  sender?: string;
  signal?: AbortSignal;
  services?: Partial<RuntimeServices>;
}

export function buildRunContext(opts: RunContextOptions): RunContext {
  const { config, agentAlias } = opts;
  const policy = opts.policy ?? buildSecurityPolicy(config, agentAlias);
  const agent = config.agents[agentAlias];
  const gate = opts.gate ?? createFakeGate('run');
  const logger = createSilentLogger();
  const services: RuntimeServices = {
    config,
    redis: unavailable('redis'),
    logger,
    createProvider: () => {
      throw new Error('test run context: no providers');
    },
    workerId: 'test-worker',
    history: unavailable('history'),
    sessionModels: unavailable('sessionModels'),
    treeBudget: unavailable('treeBudget'),
    buckets: opts.buckets ?? createMemoryBuckets(),
    tasks: unavailable('tasks'),
    buildToolSet,
    liveConfig: null,
    redact: createTextRedactor(config.secrets),
    metrics: NO_METRICS,
    cron: null,
    cost: null,
    delegation: null,
    sandbox: defaultShellSandbox(),
    approvals: NO_APPROVER_PATHS,
    events: NO_RUN_EVENTS,
    ...opts.services,
  };
  return {
    services,
    runId: 'run-test',
    rootRunId: 'run-test',
    lineage: { kind: 'root', treeRootId: 'run-test', parentRunId: null, parentToolCallId: null },
    agentAlias,
    sessionKey: 'test-session',
    sender: opts.sender ?? 'test:sender',
    bucketOwner: agentAlias,
    isSubagent: false,
    spawnSite: 'root',
    policy,
    runtime: runtimeProfileFor(config, agentAlias),
    budgetRootId: null,
    memoryAllowlist: opts.memoryAllowlist ?? [...(agent?.workspace.read_memory_from ?? []), agentAlias],
    providerRef: agent?.model_provider ?? '',
    origin: undefined,
    gate,
    createGate: () => gate,
    signal: opts.signal ?? new AbortController().signal,
    logger,
  };
}
