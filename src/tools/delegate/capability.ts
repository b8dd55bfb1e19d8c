// A delegate tool instance's identity: depth, effective cap, bound alias and action restrictions (delegate.md §7, §9.4).
import { runtimeProfileFor } from '../../config/lookup.ts';
import type { BatonConfig } from '../../config/types.ts';
import { effectiveMaxDelegationDepth } from '../../config/views.ts';
import type { DelegateCapability } from '../../run-contract/delegate-capability.ts';
import type { RunContext } from '../../run-contract/run-context.ts';

/** The capability of a top-level run of `alias`: d = 0, C from its own runtime profile. */
export function topLevelCapability(config: BatonConfig, alias: string): DelegateCapability {
  return {
    depth: 0,
    cap: effectiveMaxDelegationDepth(runtimeProfileFor(config, alias)),
    boundAlias: alias,
    delegateOnly: false,
    ancestors: [],
  };
}

/** The capability a run has: its own, or the top-level one when it is not a delegated child. Null: none. */
export function capabilityOf(run: RunContext): DelegateCapability | null {
  if (run.delegate === null) return null;
  return run.delegate ?? topLevelCapability(run.services.config, run.agentAlias);
}

/** The target-bound instance a bounded agentic child gets (§9.4): depth d + 1, cap min(C, target's). */
export function grantedCapability(
  config: BatonConfig,
  parent: DelegateCapability,
  target: string,
): DelegateCapability {
  return {
    depth: parent.depth + 1,
    cap: Math.min(parent.cap, effectiveMaxDelegationDepth(runtimeProfileFor(config, target))),
    boundAlias: target,
    delegateOnly: true,
    ancestors: [...parent.ancestors, parent.boundAlias],
  };
}

export const chainOf = (cap: DelegateCapability) => [...cap.ancestors, cap.boundAlias];
