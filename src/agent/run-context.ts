// RunContext: everything one agent run (root turn, subagent, delegated child) carries down its tool calls.
import type { Redis } from 'ioredis';
import type { ApprovalGate } from '../approval/types.ts';
import type { Recipient } from '../channel/types.ts';
import type { BatonConfig, RuntimeProfile } from '../config/types.ts';
import type { MetricsStore } from '../control-plane/metrics-store.ts';
import type { TaskRecords } from '../control-plane/task-records.ts';
import type { Logger } from '../core/logger.ts';
import type { CronControl } from '../cron/types.ts';
import type { ModelProvider } from '../providers/types.ts';
import type { ActionBuckets } from '../security/action-buckets.ts';
import type { SecurityPolicy } from '../security/types.ts';
import type { HistoryStore } from './history-store.ts';
import type { SessionModelStore } from './session-model.ts';
import type { TreeBudget } from './tree-budget.ts';

/** Process-wide services a run uses; built once per process. */
export interface RuntimeServices {
  config: BatonConfig;
  redis: Redis;
  logger: Logger;
  /** Builds the provider chain for a `<type>.<alias>` reference on behalf of `agentAlias`. */
  createProvider(ref: string, agentAlias: string): ModelProvider;
  /** Id of this process, written on task records. */
  workerId: string;
  history: HistoryStore;
  sessionModels: SessionModelStore;
  treeBudget: TreeBudget;
  buckets: ActionBuckets;
  tasks: TaskRecords;
  /** Fleet-wide metrics (turn/model latency, tool calls); absent in tests that do not need them. */
  metrics?: MetricsStore;
  /** The scheduler seam of the cron_* tools; absent in processes that run no scheduler. */
  cron?: CronControl;
}

export type SpawnSite = 'root' | 'tool' | 'cron';

export interface RunContext {
  services: RuntimeServices;
  runId: string;
  /** The run that owns the execution-tree budget. */
  rootRunId: string;
  agentAlias: string;
  /** Conversation-history key, e.g. the channel conversation, `subagent-<run_id>` or `cron-<run_id>`. */
  sessionKey: string;
  /** Identity whose action bucket this run charges (delegate.md §8.2). */
  sender: string;
  /** Owner of the action bucket (the agent alias for an agent's own runs). */
  bucketOwner: string;
  /** True for a spawn_subagent child: it may not spawn further. */
  isSubagent: boolean;
  spawnSite: SpawnSite;
  /** Live policy for this run; a subagent inherits it verbatim. */
  policy: SecurityPolicy;
  /** Loop settings for this run (the parent's for a subagent). */
  runtime: RuntimeProfile;
  /** Root run owning the execution-tree budget, or null when this tree has none. */
  budgetRootId: string | null;
  /** Memory allowlist: `read_memory_from` plus the agent itself. */
  memoryAllowlist: string[];
  /** Model provider reference in effect (may change through model_switch on top-level runs). */
  providerRef: string;
  /** The chat the turn came from, if any: its channel's excluded_tools apply, and it is the originating chat. */
  origin: Recipient | undefined;
  gate: ApprovalGate;
  /** Builds a fresh gate like this run's (same approver path) for a child that inherits it. */
  createGate(policy: SecurityPolicy): ApprovalGate;
  signal: AbortSignal;
  logger: Logger;
}
