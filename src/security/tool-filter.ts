// The risk profile's tool filter (subagents.md §6 step 1), caller allowlists, and the spawn_subagent profile gate.
import type { RiskProfile } from '../config/types.ts';
import type { SecurityPolicy } from './types.ts';

export type ToolFilter = Pick<SecurityPolicy, 'allowedTools' | 'excludedTools' | 'denyAllTools'>;

/** MCP tools are named `<server>__<tool>` and pass a non-empty allowed_tools list automatically. */
const isMcpToolName = (name: string) => name.includes('__');

export function isToolAdmitted(filter: ToolFilter, name: string): boolean {
  if (filter.denyAllTools) return false;
  if (filter.excludedTools.includes(name)) return false;
  if (filter.allowedTools.length === 0) return true;
  return filter.allowedTools.includes(name) || isMcpToolName(name);
}

/** Keeps the names the filter admits, in their original order. */
export function filterToolNames(names: readonly string[], filter: ToolFilter): string[] {
  return names.filter((n) => isToolAdmitted(filter, n));
}

/** Intersection with a caller-supplied allowlist (e.g. cron's `allowed_tools`); undefined means no narrowing. */
export function intersectAllowlist(
  names: readonly string[],
  allowlist: readonly string[] | undefined,
): string[] {
  if (allowlist === undefined) return [...names];
  const allowed = new Set(allowlist);
  return names.filter((n) => allowed.has(n));
}

/**
 * subagents.md §4 step 3: does the parent's configured profile admit `name`? Without a resolvable profile
 * the gate does not apply.
 */
export function isToolAdmittedByProfile(profile: RiskProfile | undefined, name: string): boolean {
  if (!profile) return true;
  return isToolAdmitted(
    {
      allowedTools: profile.allowed_tools,
      excludedTools: profile.excluded_tools,
      denyAllTools: profile.deny_all_tools,
    },
    name,
  );
}
