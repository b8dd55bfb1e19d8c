// What a delegation knows about its caller and its admitted target: the inputs of a delegated child's RunContext
// (agent/run-context-factory.ts) and of the delegate tool's admission (tools/delegate/).
import type { DelegateMode } from '../config/types.ts';
import type { SecurityPolicy } from '../security/types.ts';
import type { CostScope } from './cost-contract.ts';
import type { DelegateCapability } from './delegate-capability.ts';
import type { ThinkingSetting } from './thinking-setting.ts';
import type { ToolRegistry } from './tool-registry.ts';

/** What a delegation needs to know about its caller, from a live run or from a background job's payload. */
export interface CallerView {
  alias: string;
  /** The caller's run and its place in the live tree: a child hangs below it (live.md §1). */
  runId: string;
  treeRootId: string;
  /** Set when the delegation runs as this background task (its child is the task's run). */
  backgroundTaskId?: string;
  /** The caller's live policy: workspace, effective action limit, command policy. */
  policy: SecurityPolicy;
  bucketOwner: string;
  sender: string;
  sessionKey: string;
  /** Whose background tasks the caller sees (run/task-scope.ts); the child inherits it. */
  taskScope: string;
  rootRunId: string;
  budgetRootId: string | null;
  /** The caller's live tool set (the ceiling of a bounded agentic child). */
  tools: () => ToolRegistry;
  capability: DelegateCapability;
  cost: CostScope;
  toolCallId: string;
  /** The caller's thinking in effect, which a bounded target keeps (§9.7). */
  thinking: ThinkingSetting | undefined;
}

/** A target that passed the delegate.md §5 gates. */
export interface AdmittedTarget {
  target: string;
  mode: DelegateMode;
  agentic: boolean;
  /** The target's own resolved policy, before the mode's adjustments (§8.1). */
  policy: SecurityPolicy;
}
