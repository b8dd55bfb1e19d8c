// The delegate capability a run carries (delegate.md §7, §9.4); built and granted in src/tools/delegate/capability.ts.

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
