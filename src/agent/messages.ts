// Model-visible loop failure texts (subagents.md §7, §8).

export const maxIterationsText = (n: number) => `Agent exceeded maximum tool iterations (${n})`;

export const TREE_BUDGET_EXHAUSTED = 'execution-tree iteration budget exhausted';

// --- model_switch (baton's own texts) ---
export const unknownProviderText = (ref: string, configured: readonly string[]) =>
  `Unknown model_provider '${ref}'. Configured: ${configured.length ? configured.join(', ') : '(none configured)'}`;
export const providerSwitchedText = (ref: string, type: string, model: string | undefined) =>
  `Switched model provider to '${ref}' (${type}/${model ?? 'default'}) for this session.`;
