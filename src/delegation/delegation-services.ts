// What the delegate tool needs from the background-job layer (implemented in src/queue), and the job payload.
import { z } from 'zod';

export const delegateJobPayloadSchema = z.object({
  task_id: z.string(),
  caller: z.string(),
  /** Caller aliases, root first, immediate caller last. */
  chain: z.array(z.string()),
  target: z.string(),
  mode: z.enum(['bounded', 'independent']),
  /** The composed prompt (§9.1). */
  prompt: z.string(),
  depth: z.number(),
  /** The target instance's cap, for a granted instance in the child. */
  cap: z.number(),
  sender: z.string(),
  /** The caller's bucket owner and effective action limit (bounded hops charge it, tightened). */
  caller_bucket_owner: z.string(),
  caller_action_limit: z.number(),
  caller_workspace: z.string(),
  /** Names in the caller's live tool set: the ceiling of a bounded agentic child. */
  caller_tools: z.array(z.string()),
  cost: z.object({
    tracked: z.boolean(),
    perAgent: z.boolean(),
    alias: z.string(),
    ancestors: z.array(z.string()),
    delegated: z.boolean(),
  }),
  receipts: z.boolean(),
  parent_session_key: z.string(),
  /** The root conversation whose tasks the background run sees; absent in older jobs: the parent session. */
  task_scope: z.string().optional(),
  parent_tool_call_id: z.string(),
  /** The live tree the task hangs in (live.md §1): its turn's root run and the caller's run; absent in older jobs. */
  tree_root_run_id: z.string().optional(),
  parent_run_id: z.string().optional(),
  timeout_secs: z.number(),
  /** The caller's thinking in effect (a bounded target keeps it); absent in jobs queued before it existed. */
  caller_thinking: z
    .object({ level: z.string(), native: z.boolean(), keepTemperature: z.boolean().optional() })
    .optional(),
});

export type DelegateJobPayload = z.infer<typeof delegateJobPayloadSchema>;

export type DelegateJobState = 'waiting' | 'delayed' | 'active' | 'completed' | 'failed' | 'unknown';

export interface DelegationServices {
  /** Enqueues the background job; its job id is the task id. */
  enqueue(payload: DelegateJobPayload): Promise<void>;
  jobState(taskId: string): Promise<DelegateJobState>;
  /** Removes a job still waiting or delayed in the queue; true when it did. */
  removeWaiting(taskId: string): Promise<boolean>;
  /** Aborts the task wherever it runs (Redis pub/sub). */
  publishCancel(taskId: string): Promise<void>;
  /** Called with each task id settled anywhere in the deployment; returns the unsubscribe function. */
  onSettled(listener: (taskId: string) => void): () => void;
}
