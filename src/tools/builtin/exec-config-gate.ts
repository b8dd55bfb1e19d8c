// file_write to a file that configures execution is high risk, decided here as the shell tool decides commands.
import { DENIED_BY_USER, notRunText } from '../../approval/approval-messages.ts';
import type { RunContext } from '../../run-contract/run-context.ts';
import { fail, type ToolResult } from '../../run-contract/tool.ts';
import { paths as text } from '../../security/security-messages.ts';

const listed = (list: readonly string[], tool: string) => list.includes('*') || list.includes(tool);

/**
 * Refused when the profile blocks high risk; under supervised an operator is asked even when the tool is
 * auto-approved or "Always" granted (the gate left the call to this check); full autonomy writes.
 */
export async function gateExecConfigWrite(
  run: RunContext,
  tool: string,
  args: { path: string; content: string },
  signal: AbortSignal,
): Promise<ToolResult | null> {
  if (run.policy.blockHighRiskCommands) return fail(text.execConfigBlocked(args.path));
  // An `always_ask` entry already made the gate ask for this very call.
  if (run.policy.autonomy !== 'supervised' || listed(run.policy.alwaysAsk, tool)) return null;
  const outcome = await run.gate.askForCommand(tool, args, signal);
  if (outcome.kind === 'denied_by_user') return fail(DENIED_BY_USER);
  if (outcome.kind === 'denied_by_runtime') return fail(notRunText(outcome.reason, tool));
  return null;
}
