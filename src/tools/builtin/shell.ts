// The shell tool: one command, parsed to an argument vector and run without a shell under the command policy.
import { mkdir } from 'node:fs/promises';
import { z } from 'zod';
import { DENIED_BY_USER, notRunText } from '../../approval/approval-messages.ts';
import type { ApprovalReason } from '../../channel-host/approval-card.ts';
import { RunAbortedError } from '../../core/errors.ts';
import { fail, ok, type Tool } from '../../run-contract/tool.ts';
import { checkCommand } from '../../security/command-policy.ts';
import { gitGuardEnv, gitSafePassthrough, hardenGitArgv } from '../../security/git-guard.ts';
import { sandbox as sandboxText, command as text } from '../../security/security-messages.ts';
import { formatOutput, runArgv } from './shell-runner.ts';
import { chargeAction, guardedExecute, readOnlyBlock } from './tool-support.ts';

const NAME = 'shell';

export const shellInput = z.object({ command: z.string() });
export type ShellInput = z.infer<typeof shellInput>;

/** Why the command policy wants an operator: high risk first, then a write, else medium risk. */
function commandReason(check: { risk: string; writes: boolean }): ApprovalReason {
  if (check.risk === 'high') return 'high_risk_command';
  return check.writes ? 'command_writes' : 'medium_risk_command';
}

export function createShellTool(): Tool<ShellInput> {
  return {
    name: NAME,
    description:
      "Run one command in the agent's workspace. It runs without a shell: no pipes, ;, &&, redirections, " +
      '$(...) or variable expansion. The program must be on the allowed command list.',
    parameters: {
      type: 'object',
      properties: { command: { type: 'string', description: 'The command line, e.g. "git status"' } },
      required: ['command'],
      additionalProperties: false,
    },
    input: shellInput,
    execute: guardedExecute(NAME, shellInput, async ({ command }, ctx) => {
      const { run } = ctx;
      const refused = readOnlyBlock(run, NAME);
      if (refused) return refused;
      const check = checkCommand(run.policy, command);
      if (!check.ok) return fail(check.error);
      // A profile that requires the sandbox refuses before anyone is asked to approve a command that cannot run.
      const sandbox = run.services.sandbox;
      const early = await sandbox.decide(run.policy.sandbox);
      if (early.mode === 'refused') return fail(sandboxText.unavailable(early.reason ?? ''));

      // One prompt for the call: the gate's reason (always_ask, not auto-approved), left to this tool, and the
      // command policy's (its risk or write), on one card with one decision and one record.
      const reasons = [
        ...(ctx.deferredApproval ?? []),
        ...(check.needsApproval ? [commandReason(check)] : []),
      ];
      if (reasons.length > 0) {
        const outcome = await run.gate.askForCommand(NAME, { command }, ctx.signal, reasons);
        if (outcome.kind === 'denied_by_user') return fail(DENIED_BY_USER);
        if (outcome.kind === 'denied_by_runtime') return fail(notRunText(outcome.reason, NAME));
      }
      const spent = await chargeAction(run);
      if (spent) return spent;

      await mkdir(run.policy.workspaceDir, { recursive: true });
      // A zero timeout would kill every command at once; treat it as the smallest useful limit.
      const timeoutSecs = Math.max(1, run.policy.shellTimeoutSecs);
      const prepared = await sandbox.prepare(run.policy, hardenGitArgv(check.argv));
      if (!prepared.ok) return fail(prepared.error);
      const { policy } = run;
      const roots = [
        policy.workspaceDir,
        ...policy.allowedRoots,
        ...policy.allowedRootsReadOnly,
        ...policy.allowedRootsWriteOnly,
      ];
      const result = await runArgv(prepared.argv, {
        cwd: policy.workspaceDir,
        timeoutMs: timeoutSecs * 1000,
        passthrough: gitSafePassthrough(policy.shellEnvPassthrough),
        fixedEnv: gitGuardEnv(roots),
        signal: ctx.signal,
      });
      switch (result.kind) {
        case 'spawn_failed':
          return fail(text.spawnFailed(check.argv[0] ?? '', result.reason));
        case 'aborted':
          throw new RunAbortedError();
        case 'timed_out':
          return fail(text.timedOut(timeoutSecs), formatOutput(result.stdout, result.stderr));
        case 'signalled':
          return fail(text.killedBySignal(result.signal), formatOutput(result.stdout, result.stderr));
        case 'exited': {
          const output = formatOutput(result.stdout, result.stderr);
          return result.code === 0 ? ok(output) : fail(text.exitCode(result.code), output);
        }
      }
    }),
  };
}
