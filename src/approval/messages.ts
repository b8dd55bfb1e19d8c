// Model-visible approval outcome texts (approvals.md §9).

export const DENIED_BY_USER = 'Denied by user.';

export const runtimeDenialText = (tool: string) =>
  `Tool call not executed: '${tool}' requires approval and no operator decision was available, so the runtime denied it by policy. This was not a user's decision.`;

export const OPERATOR_HINT =
  "No operator could be asked. Check that an approval-capable channel is connected and that the agent's approval route names a registered, reachable approver. If this tool should run unattended, review the agent's risk profile deliberately.";
