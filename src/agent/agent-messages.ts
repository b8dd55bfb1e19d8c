// Model-visible loop failure texts (subagents.md §7, §8) and the context-window texts.

export const maxIterationsText = (n: number) => `Agent exceeded maximum tool iterations (${n})`;

export const TREE_BUDGET_EXHAUSTED = 'execution-tree iteration budget exhausted';

// --- model_switch (baton's own texts) ---
export const unknownProviderText = (ref: string, configured: readonly string[]) =>
  `Unknown model_provider '${ref}'. Configured: ${configured.length ? configured.join(', ') : '(none configured)'}`;
export const providerSwitchedText = (ref: string, type: string, model: string | undefined) =>
  `Switched model provider to '${ref}' (${type}/${model ?? 'default'}) for this session.`;

/** An old tool result cut to fit the context window (history-window.ts); not the max_tool_result_chars marker. */
export const shortenedToolResult = (head: string, omitted: number) => `${head}\n[… ${omitted} chars omitted]`;

/** A root turn's model request that got no answer within its deadline. */
export const modelRequestTimedOut = (secs: number) =>
  `the model did not answer within ${secs}s (model request timed out)`;
