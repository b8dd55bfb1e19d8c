// Run events (live.md §1): what every run (root turn, cron run, subagent, delegated child, background task) does
// while it runs, so any gateway can show it live. A view, never the authority: records stay the truth, and an
// event that cannot be written is lost, never a run. Events carry summaries only: no tool results, no arguments
// beyond the redacted summary, no prompt text, no provider error bodies.
import { z } from 'zod';

export type RunKind = 'root' | 'cron' | 'subagent' | 'delegate' | 'background';
export type RunEndState = 'completed' | 'failed' | 'cancelled' | 'timed_out' | 'denied';

/** Where a run sits in its live execution tree (set once, by createRunContext). */
export interface RunLineage {
  kind: RunKind;
  /** The top-level run of the tree (the turn or cron run that everything below descends from). */
  treeRootId: string;
  parentRunId: string | null;
  /** The parent's tool call that started this run (spawn_subagent or delegate). */
  parentToolCallId: string | null;
  /** A delegated child's mode. */
  mode?: 'bounded' | 'independent';
  /** A background task's id (delegate.md §11). */
  taskId?: string;
}

const runKind = z.enum(['root', 'cron', 'subagent', 'delegate', 'background']);

export const runEventBodySchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('run_started'),
    kind: runKind,
    agent: z.string(),
    /** Session key of the run (a subagent's `subagent-<run_id>`, a delegated child its caller's). */
    session_key: z.string(),
    mode: z.enum(['bounded', 'independent']).optional(),
    task_id: z.string().optional(),
  }),
  z.object({
    type: z.literal('run_finished'),
    state: z.enum(['completed', 'failed', 'cancelled', 'timed_out', 'denied']),
  }),
  z.object({ type: z.literal('model_request'), iteration: z.number().int().positive() }),
  z.object({
    type: z.literal('tool_started'),
    tool_call_id: z.string(),
    tool: z.string(),
    args_summary: z.string(),
  }),
  z.object({
    type: z.literal('tool_finished'),
    tool_call_id: z.string(),
    tool: z.string(),
    success: z.boolean(),
    duration_ms: z.number().int().nonnegative(),
  }),
  z.object({ type: z.literal('background_started'), task_id: z.string(), target: z.string() }),
  /** What one model response or priced tool call of this run cost (delegate.md §15), when cost is tracked. */
  z.object({ type: z.literal('cost'), micro_usd: z.number().int().nonnegative() }),
  /**
   * The answer text streamed in one model request: `delta` follows what came before in this iteration, or,
   * with `restart`, replaces it (a fallback candidate answering from the start).
   */
  z.object({
    type: z.literal('answer_delta'),
    iteration: z.number().int().positive(),
    delta: z.string(),
    restart: z.boolean(),
  }),
  /** A call waits for a human: `sent_to` is the channel key the card went to, `chat` its chat there. */
  z.object({
    type: z.literal('approval_pending'),
    approval_id: z.string(),
    tool: z.string(),
    sent_to: z.string(),
    chat: z.string(),
  }),
  z.object({
    type: z.literal('approval_settled'),
    approval_id: z.string(),
    outcome: z.enum(['approved', 'always', 'denied', 'denied_by_runtime']),
  }),
]);
export type RunEventBody = z.infer<typeof runEventBodySchema>;

const envelopeSchema = z.object({
  root_run_id: z.string().min(1),
  run_id: z.string().min(1),
  parent_run_id: z.string().nullable(),
  parent_tool_call_id: z.string().nullable(),
  /** Milliseconds since the epoch, on the emitting process's clock. */
  at: z.number().int(),
});

/** An event as written (the sequence number is given by Redis when it is stored). */
export const runEventSchema = z.intersection(envelopeSchema, runEventBodySchema);
export type NewRunEvent = z.infer<typeof runEventSchema>;
/** An event read back: `seq` orders the events of one tree, across every process that ran a part of it. */
export type RunEvent = NewRunEvent & { seq: number };

/** Emitting never blocks, never throws and never fails a run. */
export interface RunEventSink {
  emit(run: { runId: string; lineage: RunLineage }, body: RunEventBody): void;
  /**
   * Hands every event of one tree emitted in this process to `listener`, as it is emitted (the chat's live
   * view of a turn runs beside the turn, so it needs no Redis round trip). Returns the unsubscribe.
   */
  watch(treeRootId: string, listener: (event: NewRunEvent) => void): () => void;
  /** Resolves once every event emitted so far is written; a closing process calls it before closing Redis. */
  flush?(): Promise<void>;
}

/** A process that shows nothing live (one-shot tools in tests). */
export const NO_RUN_EVENTS: RunEventSink = Object.freeze({ emit() {}, watch: () => () => {} });

export function newRunEvent(run: { runId: string; lineage: RunLineage }, body: RunEventBody): NewRunEvent {
  return {
    root_run_id: run.lineage.treeRootId,
    run_id: run.runId,
    parent_run_id: run.lineage.parentRunId,
    parent_tool_call_id: run.lineage.parentToolCallId,
    at: Date.now(),
    ...body,
  };
}
