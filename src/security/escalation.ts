// The narrowing validator (subagents.md §10): a child policy may only narrow its parent's, axis by axis.
import type { Autonomy } from '../config/types.ts';
import { isContainedPath } from './paths.ts';
import { memoryAllowlistEscalation, escalation as text } from './security-messages.ts';
import type { SecurityPolicy } from './types.ts';

const AUTONOMY_RANK: Record<Autonomy, number> = { readonly: 0, supervised: 1, full: 2 };

function stripOneQuotePair(s: string): string {
  if (s.length >= 2) {
    const first = s[0];
    if ((first === '"' || first === "'") && s[s.length - 1] === first) return s.slice(1, -1);
  }
  return s;
}

/** Command equivalence: one pair of quotes stripped, trimmed; paths exact, bare names case-insensitive. */
export function commandsEquivalent(a: string, b: string): boolean {
  const x = stripOneQuotePair(a).trim();
  const y = stripOneQuotePair(b).trim();
  if (x === '' || y === '') return false;
  if (x.includes('/') || y.includes('/')) return x === y;
  return x.toLowerCase() === y.toLowerCase();
}

const containedInAny = (p: string, roots: readonly string[]) => roots.some((r) => isContainedPath(p, r));

/** `max_cost_per_day_cents = 0` means "inherit the global limit", so it is wider than any positive ceiling. */
function costExceeds(child: number, parent: number): boolean {
  if (parent === 0) return false;
  return child === 0 || child > parent;
}

/** The first violation text in spec order, or null when `child` stays within `parent`. */
export function ensureNoEscalationBeyond(child: SecurityPolicy, parent: SecurityPolicy): string | null {
  if (AUTONOMY_RANK[child.autonomy] > AUTONOMY_RANK[parent.autonomy]) {
    return text.autonomy(child.autonomy, parent.autonomy);
  }
  for (const p of child.allowedRoots) {
    if (!containedInAny(p, parent.allowedRoots)) return text.allowedRoot(p);
  }
  for (const p of child.allowedRootsReadOnly) {
    if (!containedInAny(p, [...parent.allowedRoots, ...parent.allowedRootsReadOnly]))
      return text.readOnlyRoot(p);
  }
  for (const p of child.allowedRootsWriteOnly) {
    if (!containedInAny(p, [...parent.allowedRoots, ...parent.allowedRootsWriteOnly]))
      return text.writeOnlyRoot(p);
  }
  for (const cmd of child.allowedCommands) {
    if (!parent.allowedCommands.some((pc) => commandsEquivalent(cmd, pc))) return text.command(cmd);
  }
  if (parent.workspaceOnly && !child.workspaceOnly) return text.workspaceOnly();
  for (const p of parent.forbiddenPaths) {
    if (!child.forbiddenPaths.includes(p)) return text.forbiddenPath(p);
  }
  for (const v of child.shellEnvPassthrough) {
    if (!parent.shellEnvPassthrough.includes(v)) return text.envPassthrough(v);
  }
  if (child.maxActionsPerHour > parent.maxActionsPerHour) {
    return text.maxActions(child.maxActionsPerHour, parent.maxActionsPerHour);
  }
  if (costExceeds(child.maxCostPerDayCents, parent.maxCostPerDayCents)) {
    return text.maxCost(child.maxCostPerDayCents, parent.maxCostPerDayCents);
  }
  if (child.shellTimeoutSecs > parent.shellTimeoutSecs) {
    return text.shellTimeout(child.shellTimeoutSecs, parent.shellTimeoutSecs);
  }
  if (parent.blockHighRiskCommands && !child.blockHighRiskCommands) return text.blockHighRisk();
  if (parent.requireApprovalForMediumRisk && !child.requireApprovalForMediumRisk)
    return text.requireApproval();
  return null;
}

export type AllowlistOverrideResult = { ok: true; allowlist: string[] } | { ok: false; error: string };

/**
 * A narrowing memory allowlist must be a subset of the parent's; the parent's own alias is always added back.
 * Aliases are trimmed and compared exactly.
 */
export function validateMemoryAllowlistOverride(
  parentAllowlist: readonly string[],
  parentAlias: string,
  override: readonly string[],
): AllowlistOverrideResult {
  const parentSet = new Set([...parentAllowlist.map((a) => a.trim()), parentAlias.trim()]);
  const out: string[] = [];
  for (const raw of override) {
    const alias = raw.trim();
    if (!parentSet.has(alias)) return { ok: false, error: memoryAllowlistEscalation(alias) };
    if (!out.includes(alias)) out.push(alias);
  }
  if (!out.includes(parentAlias.trim())) out.push(parentAlias.trim());
  return { ok: true, allowlist: out };
}
