// The approval gate contract: the check in front of every tool dispatch (approvals.md §2).
import type { ApprovalReason } from '../channel-host/approval-card.ts';

export type { ApprovalReason } from '../channel-host/approval-card.ts';

/** Why the runtime denied a gated call: §10 `source` values, or a gate with no approver path. */
export type RuntimeDenial = 'timed_out' | 'unreachable' | 'unavailable' | 'cancelled' | 'no_approver';

export type GateOutcome =
  | {
      kind: 'run';
      /**
       * A `shell` call that needs an operator by the gate's rules: the prompt is left to the tool, which asks once,
       * after its command policy, with these reasons and its own (one card, one decision, one record).
       */
      deferred?: readonly ApprovalReason[];
    }
  | { kind: 'denied_by_user' }
  | { kind: 'denied_by_runtime'; reason: RuntimeDenial };

export interface ApprovalGate {
  /** Decides whether one tool call may run; may wait for an operator. */
  check(tool: string, args: unknown, signal: AbortSignal): Promise<GateOutcome>;
  /**
   * For a command the tool's own policy flags (e.g. a medium-risk shell command): asks an operator
   * whatever the tool-level rules say, or denies when nobody can be asked.
   */
  askForCommand(
    tool: string,
    args: unknown,
    signal: AbortSignal,
    reasons?: readonly ApprovalReason[],
  ): Promise<GateOutcome>;
}
