// Runs one agent run end to end: system prompt, provider, loop settings from its runtime profile, the loop.
import { effectiveMaxToolIterations } from '../config/views.ts';
import type { ChatMessage, ImageInput, ModelProvider } from '../providers/types.ts';
import type { RunContext } from '../run-contract/run-context.ts';
import type { ToolRegistry } from '../run-contract/tool-registry.ts';
import { DEFAULT_ROOT_REQUEST_TIMEOUT_SECS } from './context-budget.ts';
import { withRunEvents } from './run-live.ts';
import { type BudgetRole, type LoopOutput, runAgentLoop } from './run-loop.ts';
import { buildSystemPrompt } from './system-prompt.ts';
import { thinkingEffects, withThinkingPrefix } from './thinking/levels.ts';

export interface ExecuteRunInput {
  run: RunContext;
  tools: ToolRegistry;
  history: readonly ChatMessage[];
  prompt: string;
  /** The prompt's images (a root turn's attachments); the history keeps the prompt's text only. */
  images?: readonly ImageInput[];
  budget: BudgetRole;
  /** Replaces the provider's model id (cron `model`). */
  modelOverride?: string;
  /** Extra system-prompt sections (memory context). */
  extraSystem?: readonly string[];
}

export type ExecuteRun = (input: ExecuteRunInput) => Promise<LoopOutput>;

/** Provider chains built once per reference for this run; model_switch changes `run.providerRef`. */
function providerResolver(run: RunContext): () => ModelProvider {
  const cache = new Map<string, ModelProvider>();
  return () => {
    const ref = run.routedProviderRef ?? run.providerRef;
    let p = cache.get(ref);
    if (!p) {
      p = run.services.createProvider(ref, run.agentAlias);
      cache.set(ref, p);
    }
    return p;
  };
}

/**
 * Root and cron turns have no time limit, nor do their spawn_subagent children (which live inside the
 * turn): their model requests get a deadline of their own. Delegated children have theirs (delegate.md §9).
 */
const ownsDeadline = (run: RunContext) => run.spawnSite !== 'tool' || run.isSubagent;

export const executeRun: ExecuteRun = async (input) => {
  const { run } = input;
  const provider = providerResolver(run);
  const first = provider(); // construction errors surface before any work
  const strict = run.runtime.strict_tool_parsing;
  const thinking = thinkingEffects(run.thinking, run.logger);
  const prompt = await buildSystemPrompt({
    agentAlias: run.agentAlias,
    tools: input.tools.specs(),
    // Text-protocol chains get their tool list from the provider's protocol section (delegate.md §9.6).
    listTools: first.toolProtocol === 'native',
    workspaceDir: run.policy.workspaceDir,
    ...(input.extraSystem ? { extra: input.extraSystem } : {}),
  });
  const system = withThinkingPrefix(prompt, thinking);
  return withRunEvents(run, () =>
    runAgentLoop({
      run,
      provider,
      system,
      messages: [
        ...input.history,
        { role: 'user', content: input.prompt, ...(input.images ? { images: input.images } : {}) },
      ],
      tools: input.tools,
      budget: input.budget,
      settings: {
        maxToolIterations: effectiveMaxToolIterations(run.runtime),
        parallelTools: run.runtime.parallel_tools,
        dedupExempt: run.runtime.tool_call_dedup_exempt,
        maxToolResultChars: run.runtime.max_tool_result_chars,
        strictToolParsing: strict,
        ...(input.modelOverride ? { modelOverride: input.modelOverride } : {}),
        ...(thinking.native ? { thinking: thinking.native } : {}),
        ...(ownsDeadline(run) ? { requestTimeoutSecs: DEFAULT_ROOT_REQUEST_TIMEOUT_SECS } : {}),
      },
    }),
  );
};
