// What a run carries of cost (delegate.md §15): its hop's scope and the ledger contract.
// Scopes and the observer are built in src/cost/cost-scope.ts, the Redis ledger in src/cost/ledger.ts.

/** Attribution and ceilings of one hop. */
export interface CostScope {
  /** Decided once at the root: a reload can neither switch tracking off nor re-attribute mid-tree. */
  tracked: boolean;
  perAgent: boolean;
  /** Ledger attribution of this hop. */
  alias: string;
  /** Bounded ancestors of this hop, root first (empty for a root or an independent hop). */
  ancestors: readonly string[];
  /** Inside a delegated sub-loop every limit is hard, whatever [cost.enforcement] says. */
  delegated: boolean;
}

export interface CostEntry {
  /** Ledger attribution: the alias whose row this is. */
  alias: string;
  /** Bounded ancestors, root first: each gets the spend in its descendant total. */
  ancestors: readonly string[];
  microUsd: number;
  perAgent: boolean;
  inputTokens?: number;
  outputTokens?: number;
  /** warn_at_percent thresholds of the shared totals (micro-dollars); absent: no crossing check. */
  warnAt?: { day: number; month: number };
  now?: Date;
}

/** The shared totals, and whether this record was the fleet's first to reach a warn threshold this period. */
export interface RecordResult {
  day: number;
  month: number;
  warned: { day: boolean; month: boolean };
}

/** Micro-dollars; a counter that is not an integer in Redis reads as Infinity, so its limits are reached. */
export interface LedgerSnapshot {
  day: number;
  month: number;
  /** Per alias: its own daily spend and its descendants' (0 when per-agent tracking is off). */
  agents: Map<string, { own: number; descendants: number }>;
}

/** What `reserve` found: room (and the reservation was made), or the first limit reached and its spend. */
export type ReserveOutcome =
  | { ok: true; routed: boolean; day: number; month: number }
  | { ok: false; limit: 'daily'; spent: number }
  | { ok: false; limit: 'ceiling'; member: number; spent: number }
  | { ok: false; limit: 'monthly'; spent: number };

export interface ReserveRequest {
  /** Root first, the hop itself last. */
  chain: readonly string[];
  /** Effective ceiling of each chain member, micro-dollars. */
  ceilings: readonly number[];
  dailyLimit: number;
  monthlyLimit: number;
  perAgent: boolean;
  /** Estimated cost of the request about to be made; settle with `record(actual − estimate)`. */
  estimate: number;
  /** route_down: shared totals at which the request is routed, and its estimate then. */
  route?: { day: number; month: number; estimate: number };
  now?: Date;
}

export interface CostLedger {
  /** Adds the entry everywhere it counts; returns the new shared day and month totals (micro-dollars). */
  record(entry: CostEntry): Promise<RecordResult>;
  /** The §15 checks and a reservation of the estimate, in one atomic step. */
  reserve(req: ReserveRequest): Promise<ReserveOutcome>;
  read(aliases: readonly string[], now?: Date): Promise<LedgerSnapshot>;
  /** The shared totals this process last saw (any record, reserve or read), if under `maxAgeMs` old. */
  recentTotals(maxAgeMs: number, now?: Date): { day: number; month: number } | undefined;
  /** The Redis keys of one period (tests and operators). */
  keys(now?: Date): {
    day: string;
    month: string;
    agent(alias: string): string;
    descendants(alias: string): string;
    warned: { day: string; month: string };
  };
}
