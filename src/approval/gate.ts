// The approval gate: decides per tool call whether it runs, is approved, or needs an operator (approvals.md §2).
import { writesExecConfig } from '../security/exec-config.ts';
import type { SecurityPolicy } from '../security/types.ts';
import type { ApprovalGate, ApprovalReason, GateOutcome, RuntimeDenial } from './types.ts';

/** The operator's answer, or why the runtime denied the call (kept distinct: §9 texts, §14 logs, the audit). */
export type AskAnswer = 'approve' | 'always' | 'deny' | RuntimeDenial;

/** Something that can put one prompt in front of an operator and wait for the answer. */
export interface ApprovalAsker {
  /** `posted` is told each prompt as it goes out (a route's fallback to the origin posts a second one). */
  ask(
    tool: string,
    args: unknown,
    signal: AbortSignal,
    posted?: (p: PostedPrompt) => void,
    /** Why the operator is asked: the card's `Reason:` line. */
    reasons?: readonly ApprovalReason[],
  ): Promise<AskAnswer>;
  /** The same approver path asking for another run of the same tree (a `spawn_subagent` child): its own run id. */
  forRun?(runId: string): ApprovalAsker;
}

/** Where one approval prompt went: the channel key and the chat there. */
export interface PostedPrompt {
  approvalId: string;
  channel: string;
  chat: string;
}

export type Requirement = 'not_required' | 'approved' | 'prompt';

function listed(list: readonly string[], tool: string): boolean {
  return list.includes('*') || list.includes(tool);
}

/**
 * A call whose tool applies its own high-risk policy, as shell does: a `file_write` to a file that configures
 * execution (`.git/config`, …) is refused or asked for by the tool, past `auto_approve` and "Always".
 */
export function isSelfGated(
  policy: Pick<SecurityPolicy, 'workspaceDir'>,
  tool: string,
  args: unknown,
): boolean {
  if (tool === 'shell') return true;
  if (tool !== 'file_write' || typeof args !== 'object' || args === null || !('path' in args)) return false;
  return typeof args.path === 'string' && writesExecConfig(policy.workspaceDir, args.path);
}

/** The first matching rule of approvals.md §2; `selfGated` widens the shell rule (4) to such calls. */
export function evaluateRequirement(
  policy: Pick<SecurityPolicy, 'autonomy' | 'alwaysAsk' | 'autoApprove'>,
  tool: string,
  shellExempt: boolean,
  alwaysGranted: ReadonlySet<string>,
  selfGated = tool === 'shell',
): Requirement {
  if (policy.autonomy === 'readonly') return 'not_required';
  if (listed(policy.alwaysAsk, tool)) return 'prompt';
  if (policy.autonomy === 'full') return 'approved';
  if (selfGated && shellExempt) return 'not_required';
  if (listed(policy.autoApprove, tool)) return 'approved';
  if (alwaysGranted.has(tool)) return 'approved';
  return 'prompt';
}

export interface GateOptions {
  policy: SecurityPolicy;
  /** Off only for the route gate of an independent delegated child (approvals.md §7). */
  shellExempt: boolean;
  /** Null makes a non-interactive gate: every prompt is denied by the runtime. */
  asker: ApprovalAsker | null;
  /** Told the outcome of every call that needed an approval (the fleet metrics count them). */
  onDecision?: (outcome: ApprovalOutcome) => void;
  /** The run's live view (live.md §1): each prompt posted, and how it was settled. */
  prompts?: PromptWatcher;
}

export interface PromptWatcher {
  pending(p: PostedPrompt & { tool: string }): void;
  settled(approvalId: string, outcome: ApprovalOutcome): void;
}

/** What the gate did with a call that needed an operator (the `outcome` label of baton_approvals_total). */
export type ApprovalOutcome = 'approved' | 'always' | 'denied' | 'denied_by_runtime';

/** Every runtime reason counts as `denied_by_runtime` in the metrics; the model, logs and audit keep it apart. */
const outcomeOf = (answer: AskAnswer): ApprovalOutcome =>
  answer === 'approve'
    ? 'approved'
    : answer === 'always'
      ? 'always'
      : answer === 'deny'
        ? 'denied'
        : 'denied_by_runtime';

const gateOutcomeOf = (answer: AskAnswer): GateOutcome =>
  answer === 'approve' || answer === 'always'
    ? { kind: 'run' }
    : answer === 'deny'
      ? { kind: 'denied_by_user' }
      : { kind: 'denied_by_runtime', reason: answer };

/** A fresh gate; its "Always" list lives as long as the gate (approvals.md §3). */
export function createApprovalGate(opts: GateOptions): ApprovalGate {
  const always = new Set<string>();
  const ask = async (
    tool: string,
    args: unknown,
    signal: AbortSignal,
    reasons: readonly ApprovalReason[] = [],
  ): Promise<GateOutcome> => {
    const prompts: string[] = [];
    const posted = (p: PostedPrompt) => {
      prompts.push(p.approvalId);
      opts.prompts?.pending({ ...p, tool });
    };
    const answer: AskAnswer = opts.asker
      ? await opts.asker.ask(tool, args, signal, posted, reasons)
      : 'no_approver';
    if (answer === 'always') always.add(tool);
    const outcome = outcomeOf(answer);
    for (const id of prompts) opts.prompts?.settled(id, outcome);
    opts.onDecision?.(outcome);
    return gateOutcomeOf(answer);
  };
  return {
    async check(tool, args, signal) {
      const selfGated = isSelfGated(opts.policy, tool, args);
      const req = evaluateRequirement(opts.policy, tool, opts.shellExempt, always, selfGated);
      if (req !== 'prompt') return { kind: 'run' };
      const reason: ApprovalReason = listed(opts.policy.alwaysAsk, tool) ? 'always_ask' : 'not_auto_approved';
      // One prompt per call: a self-gated tool (shell, a file_write to an execution config) asks after its own
      // policy, naming this reason and its own; a call its policy refuses is refused without a prompt.
      if (selfGated) return { kind: 'run', deferred: [reason] };
      return ask(tool, args, signal, [reason]);
    },
    askForCommand: ask,
  };
}
