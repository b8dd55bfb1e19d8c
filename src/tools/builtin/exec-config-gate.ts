// file_write to a file that configures execution is high risk, decided here as the shell tool decides commands.
import { DENIED_BY_USER, notRunText } from '../../approval/approval-messages.ts';
import type { ApprovalReason } from '../../channel-host/approval-card.ts';
import type { RunContext } from '../../run-contract/run-context.ts';
import { fail, type ToolResult } from '../../run-contract/tool.ts';
import { paths as text } from '../../security/security-messages.ts';

/**
 * A write to a file that configures execution: refused when the profile blocks high risk; under supervised an
 * operator is asked even when the tool is auto-approved or "Always" granted. `deferred`: the gate's own reasons for
 * this call (always_ask, not auto-approved), asked on the same card, so the call is asked once whatever the target.
 */
export async function gateExecConfigWrite(
  run: RunContext,
  tool: string,
  args: { path: string; content: string },
  signal: AbortSignal,
  deferred: readonly ApprovalReason[] = [],
  execConfig = true,
): Promise<ToolResult | null> {
  if (execConfig && run.policy.blockHighRiskCommands) return fail(text.execConfigBlocked(args.path));
  const own: ApprovalReason[] =
    execConfig && run.policy.autonomy === 'supervised' ? ['exec_config_write'] : [];
  const reasons = [...deferred, ...own];
  if (reasons.length === 0) return null;
  const outcome = await run.gate.askForCommand(tool, args, signal, reasons);
  if (outcome.kind === 'denied_by_user') return fail(DENIED_BY_USER);
  if (outcome.kind === 'denied_by_runtime') return fail(notRunText(outcome.reason, tool));
  return null;
}
