// The delegate tool: action dispatch, the synchronous path, and wiring to background, parallel and management.
import { z } from 'zod';
import type { DelegateCapability } from '../../run-contract/delegate-capability.ts';
import type { RunContext } from '../../run-contract/run-context.ts';
import type { Tool, ToolResult } from '../../run-contract/tool.ts';
import type { ToolRegistry } from '../../run-contract/tool-registry.ts';
import type { SecurityPolicy } from '../../security/types.ts';
import { type Args, admitDelegation, callerViewOf, parseDelegateArgs } from './admission.ts';
import { awaitSessions } from './await-sessions.ts';
import { startBackground } from './background.ts';
import { capabilityOf } from './capability.ts';
import { DELEGATE_DESCRIPTION, delegateOnlyRefusal, unknownAction } from './delegate-messages.ts';
import { composePrompt, type ExecuteDeps, executeDelegation } from './execute.ts';
import { advertisedRoster } from './gates.ts';
import { cancelTask, checkResult, listResults } from './management.ts';
import { runParallel } from './parallel.ts';
import { delegateParameters } from './schema.ts';

export interface DelegateToolOptions {
  /** The instance's capability; undefined: the run's own (top-level, or inherited by a subagent). */
  capability?: DelegateCapability;
  /** The tool set this instance lives in (the caller's live set). */
  callerTools: () => ToolRegistry;
  /** Alias whose roster is advertised (the capability's bound alias), and its policy. */
  rosterFor: string;
  rosterPolicy: Pick<SecurityPolicy, 'delegationMode'>;
  config: RunContext['services']['config'];
  deps: Omit<ExecuteDeps, 'createGrant'>;
}

const MANAGEMENT = ['check_result', 'list_results', 'cancel_task', 'await_sessions'];
/** The tool is built per run; its (pass-through) input schema need not be. */
const ANY_INPUT = z.unknown();

export function createDelegateTool(opts: DelegateToolOptions): Tool<unknown> {
  const deps: ExecuteDeps = {
    ...opts.deps,
    createGrant: (capability, childTools, policy) =>
      createDelegateTool({
        ...opts,
        capability,
        callerTools: childTools,
        rosterFor: capability.boundAlias,
        rosterPolicy: policy,
      }),
  };
  return {
    name: 'delegate',
    description: DELEGATE_DESCRIPTION,
    parameters: delegateParameters(advertisedRoster(opts.config, opts.rosterFor, opts.rosterPolicy)),
    input: ANY_INPUT,
    async execute(raw, ctx) {
      const args: Args = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Args) : {};
      const cap = opts.capability ?? capabilityOf(ctx.run);
      if (!cap) throw new Error('delegate is not available in this run');
      const action = args.action === undefined ? 'delegate' : args.action;
      if (action === 'delegate')
        return delegateAction(ctx.run, cap, args, ctx.toolCallId, opts.callerTools, deps);
      if (typeof action !== 'string' || !MANAGEMENT.includes(action)) {
        return {
          success: false,
          output: '',
          error: unknownAction(typeof action === 'string' ? action : JSON.stringify(action)),
        };
      }
      if (cap.delegateOnly) return { success: false, output: '', error: delegateOnlyRefusal(action) };
      if (action === 'check_result') return checkResult(ctx.run, cap.boundAlias, args);
      if (action === 'list_results') return listResults(ctx.run, cap.boundAlias);
      if (action === 'cancel_task') return cancelTask(ctx.run, cap.boundAlias, args);
      return awaitSessions(ctx.run, cap.boundAlias, args);
    },
  };
}

async function delegateAction(
  run: RunContext,
  cap: DelegateCapability,
  args: Args,
  toolCallId: string,
  callerTools: () => ToolRegistry,
  deps: ExecuteDeps,
): Promise<ToolResult> {
  if (Array.isArray(args.parallel)) {
    return runParallel({ run, cap, args, parallel: args.parallel, toolCallId, callerTools, deps });
  }
  const parsed = parseDelegateArgs(args);
  if ('success' in parsed) return parsed;
  if (args.background === true) return startBackground({ run, cap, args: parsed, toolCallId, callerTools });
  const admitted = await admitDelegation(run, cap, parsed.agent);
  if (!admitted.ok) return admitted.result;
  return executeDelegation({
    services: run.services,
    caller: callerViewOf(run, cap, toolCallId, callerTools),
    target: admitted.value,
    prompt: composePrompt(parsed.prompt, parsed.context),
    signal: run.signal,
    newRoot: false,
    deps,
  });
}
