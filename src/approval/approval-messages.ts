// Model-visible approval outcome texts (approvals.md §9).

export const DENIED_BY_USER = 'Denied by user.';

export const runtimeDenialText = (tool: string) =>
  `Tool call not executed: '${tool}' requires approval and no operator decision was available, so the runtime denied it by policy. This was not a user's decision.`;

export const OPERATOR_HINT =
  "No operator could be asked. Check that an approval-capable channel is connected and that the agent's approval route names a registered, reachable approver. If this tool should run unattended, review the agent's risk profile deliberately.";

/**
 * Why a gated call did not run: the operator's deny, or a runtime denial (§10 `source` values, plus a gate with
 * no approver path). An abandoned (`cancelled`) wait ends a run that is stopping; if its call is reported at all,
 * it was not a user's decision either.
 */
export type NotRunReason =
  | 'operator_deny'
  | 'timed_out'
  | 'unreachable'
  | 'unavailable'
  | 'cancelled'
  | 'no_approver';

/** The `error` a call that did not run returns to the model (§9). */
export const notRunText = (reason: NotRunReason, tool: string): string =>
  reason === 'operator_deny' ? DENIED_BY_USER : runtimeDenialText(tool);

/** A refused call's tool status line in the chat, where baton shows them (§9). */
export const refusedStatusLine = (tool: string, text: string) => `❌ ${tool}: ${text}`;
