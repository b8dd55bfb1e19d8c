// Model-visible loop failure texts (subagents.md §7, §8).

export const maxIterationsText = (n: number) => `Agent exceeded maximum tool iterations (${n})`;

export const TREE_BUDGET_EXHAUSTED = 'execution-tree iteration budget exhausted';
