// RunContext: everything one agent run (root turn, subagent, delegated child) carries down its tool calls.

import type { Redis } from 'ioredis';
import type { AskContext } from '../approval/channel-asker.ts';
import type { ApprovalAsker } from '../approval/gate.ts';
import type { ApprovalGate } from '../approval/types.ts';
import type { Recipient } from '../channel-host/types.ts';
import type { LiveConfig } from '../config/live-config.ts';
import type { BatonConfig, RuntimeProfile } from '../config/types.ts';
import type { Logger } from '../core/logger.ts';
import type { CronControl } from '../cron/types.ts';
import type { DelegationServices } from '../delegation/delegation-services.ts';
import type { TaskRecords } from '../delegation/task-records.ts';
import type { TreeBudget } from '../delegation/tree-budget.ts';
import type { MetricsStore } from '../fleet/metrics-store.ts';
import type { ModelProvider, ModelResponse } from '../providers/types.ts';
import type { ActionBuckets } from '../security/action-buckets.ts';
import type { ShellSandbox } from '../security/sandbox/shell-sandbox.ts';
import type { SecurityPolicy } from '../security/types.ts';
import type { HistoryStore } from '../session/history-store.ts';
import type { SessionModelStore } from '../session/session-model.ts';
import type { CostLedger, CostScope } from './cost-contract.ts';
import type { DelegateCapability } from './delegate-capability.ts';
import type { PendingWrites } from './pending-writes.ts';
import type { RunEventSink, RunLineage } from './run-events.ts';
import type { ThinkingSetting } from './thinking-setting.ts';
import type { BuildToolSet } from './tool-registry.ts';
import type { TurnFiles } from './turn-files.ts';

/** Channel approvals (approvals.md §5): the asker of a run, null when it has no approver path. */
export interface ApproverPaths {
  askerFor(ctx: AskContext): ApprovalAsker | null;
}

/** A process with no channel approvals (one-shot CLI, tests): every run's asker is null. */
export const NO_APPROVER_PATHS: ApproverPaths = Object.freeze({ askerFor: () => null });

/**
 * Process-wide services a run uses: built once per process, in one composition root (src/roles/services.ts),
 * and never changed after. What a process lacks is a null object (metrics, approvals) or an explicit null (a
 * scheduler, a background queue, a cost ledger: their absence changes what the run offers).
 */
export interface RuntimeServices {
  /** The config of this run: the snapshot taken at its turn's start (live-services.ts). */
  readonly config: BatonConfig;
  /** The process's reloadable config; null: `config` never changes (one-shot runs, hand-built tests). */
  readonly liveConfig: LiveConfig | null;
  readonly redis: Redis;
  readonly logger: Logger;
  /** Builds the provider chain for a `<type>.<alias>` reference on behalf of `agentAlias`. */
  createProvider(ref: string, agentAlias: string): ModelProvider;
  /** Id of this process, written on task records. */
  readonly workerId: string;
  /** Replaces every known secret in text leaving baton (chat replies, tool results to a model). */
  readonly redact: (text: string) => string;
  readonly history: HistoryStore;
  readonly sessionModels: SessionModelStore;
  readonly treeBudget: TreeBudget;
  readonly buckets: ActionBuckets;
  readonly tasks: TaskRecords;
  /** The tool set of a run (src/tools/tool-set.ts), set where the process is wired: agent/ is below tools/. */
  readonly buildToolSet: BuildToolSet;
  /** Fleet-wide metrics; NO_METRICS where a process records none. */
  readonly metrics: MetricsStore;
  /** The scheduler seam of the cron_* tools; null in processes that run no scheduler (no cron tools then). */
  readonly cron: CronControl | null;
  /** The daily/monthly cost ledger (delegate.md §15); null in tool tests that do not price anything. */
  readonly cost: CostLedger | null;
  /** Background-delegation queue, task events and cross-process cancel (delegate.md §11); null: no background. */
  readonly delegation: DelegationServices | null;
  /** The shell sandbox of this process (config.md §10.2). */
  readonly sandbox: ShellSandbox;
  readonly approvals: ApproverPaths;
  /** Live run events (live.md §1); NO_RUN_EVENTS where nothing is shown live. */
  readonly events: RunEventSink;
}

/** Hooks around a run's model requests and tool calls (cost checks, background progress). */
export interface RunObserver {
  /** Before each model request; a throw refuses the request and fails the loop with its message. */
  beforeModelRequest?(run: RunContext): Promise<void>;
  afterModelResponse?(run: RunContext, res: ModelResponse): Promise<void>;
  /** The request failed (no response): release whatever beforeModelRequest held for it. */
  modelRequestFailed?(run: RunContext): Promise<void>;
  toolStarted?(name: string): void;
  toolFinished?(name: string, success: boolean, run: RunContext): Promise<void> | void;
}

export type SpawnSite = 'root' | 'tool' | 'cron';

export interface RunContext {
  services: RuntimeServices;
  runId: string;
  /** The run that owns the execution-tree budget. */
  rootRunId: string;
  /** Where the run sits in its live execution tree (live.md §1). */
  lineage: RunLineage;
  agentAlias: string;
  /** Conversation-history key, e.g. the channel conversation, `subagent-<run_id>` or `cron-<run_id>`. */
  sessionKey: string;
  /** Whose background tasks this run sees (task-scope.ts); absent: its own sessionKey (a root run). */
  taskScope?: string;
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
  /** Set by the cost observer for a request that route_down sends to route_down_model (config.md §8.2). */
  routedProviderRef?: string | undefined;
  /** The chat the turn came from, if any: its channel's excluded_tools apply, and it is the originating chat. */
  origin: Recipient | undefined;
  /** Where send_file queues files (a root turn with a chat, its subagents, a cron job that delivers); absent: none. */
  files?: TurnFiles;
  gate: ApprovalGate;
  /**
   * Builds a fresh gate like this run's (same approver path) for a child that inherits it; given the child's
   * run, its prompts are that run's (the approval record's `run_id`, the live tree's pending approvals).
   */
  createGate(policy: SecurityPolicy, run?: { runId: string; lineage: RunLineage }): ApprovalGate;
  signal: AbortSignal;
  logger: Logger;
  /** delegate capability (delegate.md §7): undefined = a top-level instance, null = no delegate at all. */
  delegate?: DelegateCapability | null;
  /** Cost attribution and ceilings of this run's hop (delegate.md §15); undefined = untracked. */
  cost?: CostScope;
  /** Inherited by subagent children (they belong to the same hop). */
  observers?: readonly RunObserver[];
  /** Thinking in effect (delegate.md §9.7): the agent's own, a subagent's parent's, a bounded caller's. */
  thinking?: ThinkingSetting;
  /** Writes this run need not wait for, joined by the owner of its end; absent: every write is awaited. */
  writes?: PendingWrites;
}
