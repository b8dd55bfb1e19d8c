// A delegate tool instance's identity: depth, effective cap, bound alias and action restrictions (delegate.md §7, §9.4).
import type { RunContext } from '../../agent/run-context.ts';
import { runtimeProfileFor } from '../../config/lookup.ts';
import type { BatonConfig } from '../../config/types.ts';
import { effectiveMaxDelegationDepth } from '../../config/views.ts';

export interface DelegateCapability {
  /** `d`: the instance's depth. */
  depth: number;
  /** `C`: the effective depth cap; it only tightens hop by hop. */
  cap: number;
  /** The caller this instance resolves everything from (the target for a granted instance). */
  boundAlias: string;
  /** Granted instances refuse the management actions. */
  delegateOnly: boolean;
  /** Caller aliases above `boundAlias`, root first; a task record's chain is this plus `boundAlias`. */
  ancestors: string[];
}

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
