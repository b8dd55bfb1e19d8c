// The result of classifying one argument vector: its risk, whether it may write, and what it writes.
import type { CommandRisk } from '../types.ts';

/** The arguments a command writes to, or `all` when the classifier cannot tell which ones. */
export type WriteTargets = readonly string[] | 'all';

export interface CommandClass {
  risk: CommandRisk;
  /** The command may change files; it counts as a write for the approval rules (like `file_write`). */
  writes: boolean;
  targets: WriteTargets;
}

const ORDER: Record<CommandRisk, number> = { low: 0, medium: 1, high: 2 };

/** Known to only read. */
export const READS: CommandClass = { risk: 'low', writes: false, targets: [] };

/** Not known to be read-only: it may write anywhere its arguments point. */
export const UNKNOWN: CommandClass = { risk: 'medium', writes: true, targets: 'all' };

/** Runs an arbitrary program or code, or acts with privilege, on the network or on other processes. */
export const HIGH: CommandClass = { risk: 'high', writes: true, targets: 'all' };

/** Known to only read, but with a setting that is not (a config value, a pager, …). */
export const READS_MEDIUM: CommandClass = { risk: 'medium', writes: false, targets: [] };

export const writesTo = (targets: WriteTargets, risk: CommandRisk = 'medium'): CommandClass => ({
  risk: ORDER[risk] < ORDER.medium ? 'medium' : risk,
  writes: true,
  targets,
});

/** The stricter of each field. */
export function worst(...classes: CommandClass[]): CommandClass {
  let risk: CommandRisk = 'low';
  let writes = false;
  let targets: string[] | 'all' = [];
  for (const c of classes) {
    if (ORDER[c.risk] > ORDER[risk]) risk = c.risk;
    writes ||= c.writes;
    if (targets === 'all' || c.targets === 'all') targets = 'all';
    else targets = [...targets, ...c.targets];
  }
  return { risk, writes, targets };
}

/** Words of a space-separated list, as a set. */
export const words = (list: string): ReadonlySet<string> => new Set(list.split(/\s+/).filter(Boolean));
