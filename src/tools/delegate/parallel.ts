// Parallel fan-out (delegate.md §13): all-or-nothing validation, concurrent children, the aggregated blocks.
import { errorMessage, RunAbortedError } from '../../core/errors.ts';
import type { DelegateCapability } from '../../run-contract/delegate-capability.ts';
import type { AdmittedTarget } from '../../run-contract/delegation-view.ts';
import type { RunContext } from '../../run-contract/run-context.ts';
import { fail, ok, type ToolResult } from '../../run-contract/tool.ts';
import type { ToolRegistry } from '../../run-contract/tool-registry.ts';
import { type Args, callerViewOf, chargeCaller } from './admission.ts';
import {
  depthLimit,
  EMPTY_PARALLEL,
  EMPTY_PROMPT,
  MISSING_PROMPT_PARALLEL,
  PARALLEL_FAILED,
  parallelBlockHeader,
  parallelHeader,
  unknownParallelAgent,
} from './delegate-messages.ts';
import { composePrompt, type ExecuteDeps, executeDelegation } from './execute.ts';
import { admitTarget, allAgentsList, isConfiguredAgent } from './gates.ts';

export interface ParallelInput {
  run: RunContext;
  cap: DelegateCapability;
  args: Args;
  parallel: unknown[];
  toolCallId: string;
  callerTools: () => ToolRegistry;
  deps: ExecuteDeps;
}

/** Validation steps 1–5: the first failure aborts the whole request before any child starts. */
function validate(input: ParallelInput): { prompt: string; targets: AdmittedTarget[] } | ToolResult {
  const { run, cap, args } = input;
  const { config } = run.services;
  if (typeof args.prompt !== 'string') throw new Error(MISSING_PROMPT_PARALLEL);
  if (!args.prompt.trim()) return fail(EMPTY_PROMPT);
  const names = input.parallel
    .filter((n): n is string => typeof n === 'string')
    .map((n) => n.trim())
    .filter(Boolean);
  if (names.length === 0) return fail(EMPTY_PARALLEL);
  for (const n of names) {
    if (!isConfiguredAgent(config, n)) return fail(unknownParallelAgent(n, allAgentsList(config)));
  }
  if (cap.depth >= cap.cap) return fail(depthLimit(cap.depth, cap.cap));
  const targets: AdmittedTarget[] = [];
  for (const n of names) {
    const gate = admitTarget(config, cap.boundAlias, run.policy, n, run.logger);
    if (!gate.ok) return fail(gate.error);
    targets.push(gate.value);
  }
  return { prompt: composePrompt(args.prompt, args.context), targets };
}

function block(agent: string, r: ToolResult): string {
  let out = parallelBlockHeader(agent, r.success);
  if (r.output) out += `\n${r.output}`;
  if (r.error) out += `\nError: ${r.error}`;
  return out;
}

export async function runParallel(input: ParallelInput): Promise<ToolResult> {
  const checked = validate(input);
  if ('success' in checked) return checked;
  const { run, cap } = input;
  const caller = callerViewOf(run, cap, input.toolCallId, input.callerTools);
  // One-shot children are not interrupted mid-call: they end on their own time limit (§16).
  const detached = new AbortController().signal;
  const child = async (t: AdmittedTarget): Promise<ToolResult> => {
    // Each child is a full synchronous delegation: one action each, the gates again, no depth re-check.
    const charged = await chargeCaller(run);
    if (charged) return charged;
    const gate = admitTarget(run.services.config, cap.boundAlias, run.policy, t.target, run.logger);
    if (!gate.ok) return fail(gate.error);
    return executeDelegation({
      services: run.services,
      caller,
      target: gate.value,
      prompt: checked.prompt,
      signal: gate.value.agentic ? run.signal : detached,
      newRoot: false,
      deps: input.deps,
    });
  };
  const settled = Promise.allSettled(checked.targets.map(child));
  let onAbort = (): void => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new RunAbortedError());
    if (run.signal.aborted) onAbort();
    run.signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => {}); // observed through the race below; a late abort must not surface as unhandled
  let results: PromiseSettledResult<ToolResult>[];
  try {
    results = await Promise.race([settled, aborted]);
  } catch (err) {
    if (run.signal.aborted) throw new RunAbortedError();
    const joinError = `--- [join error] ---\n${errorMessage(err)}`;
    return fail(PARALLEL_FAILED, `${parallelHeader(checked.targets.length)}\n\n${joinError}`);
  } finally {
    run.signal.removeEventListener('abort', onAbort);
  }
  if (run.signal.aborted) throw new RunAbortedError();
  const blocks = results.map((r, i) =>
    block(checked.targets[i]!.target, r.status === 'fulfilled' ? r.value : fail(errorMessage(r.reason))),
  );
  const output = `${parallelHeader(checked.targets.length)}\n\n${blocks.join('\n\n')}`;
  const allOk = results.every((r) => r.status === 'fulfilled' && r.value.success);
  return allOk ? ok(output) : fail(PARALLEL_FAILED, output);
}
