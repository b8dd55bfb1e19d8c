// Per-run duplicate-call guard (subagents.md §9): same tool + JSON-equal arguments is skipped.

const ALWAYS_EXEMPT = ['spawn_subagent', 'delegate'];

export const duplicateCallText = (tool: string) =>
  `Skipped duplicate tool call '${tool}' with identical arguments in this turn.`;

/** JSON with object keys sorted, so key order does not matter. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export interface DuplicateGuard {
  /** True when this call repeats an earlier one of the run and is not exempt; records it otherwise. */
  isDuplicate(tool: string, args: unknown): boolean;
}

export function createDuplicateGuard(extraExempt: readonly string[] = []): DuplicateGuard {
  const exempt = new Set([...ALWAYS_EXEMPT, ...extraExempt]);
  const seen = new Set<string>();
  return {
    isDuplicate(tool, args) {
      if (exempt.has(tool)) return false;
      const key = `${tool}\u0000${canonicalJson(args)}`;
      if (seen.has(key)) return true;
      seen.add(key);
      return false;
    },
  };
}
