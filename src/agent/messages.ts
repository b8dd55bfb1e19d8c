// Model-visible loop failure texts (subagents.md §7, §8) and the context-window texts.

export const maxIterationsText = (n: number) => `Agent exceeded maximum tool iterations (${n})`;

export const TREE_BUDGET_EXHAUSTED = 'execution-tree iteration budget exhausted';

/** An old tool result cut to fit the context window (history-window.ts); not the max_tool_result_chars marker. */
export const shortenedToolResult = (head: string, omitted: number) => `${head}\n[… ${omitted} chars omitted]`;

/** A root turn's model request that got no answer within its deadline (request-deadline.ts). */
export const modelRequestTimedOut = (secs: number) =>
  `the model did not answer within ${secs}s (model request timed out)`;
