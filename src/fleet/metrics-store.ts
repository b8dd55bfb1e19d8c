// Fleet-wide metrics in one Redis hash: any process records with atomic increments; the gateway renders Prometheus text.
import type { ChainableCommander, Redis } from 'ioredis';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';

export type TurnOutcome = 'ok' | 'error' | 'aborted';

export interface MetricsStore {
  /** Recording never throws and never waits on Redis: a write that fails is logged and dropped. */
  observeTurn(latencyMs: number, outcome: TurnOutcome): void;
  observeModelRequest(latencyMs: number, providerType: string, ok: boolean): void;
  countToolCall(tool: string, success: boolean): void;
  /** A gated call that needed an operator, by what the gate did (approved, always, denied, denied_by_runtime). */
  countApproval(outcome: string): void;
  /** An approval prompt written to Redis (one per pending record), by channel key. */
  countApprovalPrompt(channel: string): void;
  /** A pending record settled (exactly once, by the winning compare-and-set), with its prompt-to-decision time. */
  observeApprovalSettled(outcome: string, seconds: number): void;
  /** A reply chunk sent, a failed send attempt, a rate-limited send, or a reply given up on. */
  countOutbox(channel: string, outcome: 'sent' | 'failed' | 'rate_limited' | 'dropped'): void;
  countError(kind: string): void;
  /** Resolves once every write recorded so far has reached Redis (or was dropped). */
  flush(): Promise<void>;
  /** Prometheus text exposition of everything recorded by every process of the deployment. */
  render(): Promise<string>;
}

/** A process that records nothing (one-shot tools in tests): every call is a no-op. */
export const NO_METRICS: MetricsStore = Object.freeze({
  observeTurn() {},
  observeModelRequest() {},
  countToolCall() {},
  countApproval() {},
  countApprovalPrompt() {},
  observeApprovalSettled() {},
  countOutbox() {},
  countError() {},
  flush: async () => {},
  render: async () => '',
});

interface Family {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  labels: readonly string[];
  /** Upper bounds in seconds, ascending (histograms only). */
  buckets?: readonly number[];
}

const TURN_BUCKETS = [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600] as const;
const MODEL_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120] as const;
/** Operators answer in seconds to minutes; timeouts reach the channel's approval_timeout_secs. */
const APPROVAL_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600] as const;

export const METRIC_FAMILIES = {
  turn: {
    name: 'baton_turn_duration_seconds',
    help: 'Duration of top-level agent turns, by outcome.',
    type: 'histogram',
    labels: ['outcome'],
    buckets: TURN_BUCKETS,
  },
  model: {
    name: 'baton_model_request_duration_seconds',
    help: 'Duration of model requests (whole fallback chain), by provider type and outcome.',
    type: 'histogram',
    labels: ['provider_type', 'outcome'],
    buckets: MODEL_BUCKETS,
  },
  tool: {
    name: 'baton_tool_calls_total',
    help: 'Tool calls that ran to completion, by tool and success.',
    type: 'counter',
    labels: ['tool', 'success'],
  },
  approval: {
    name: 'baton_approvals_total',
    help: 'Tool calls that needed an operator, by what the gate did (approved, always, denied, denied_by_runtime).',
    type: 'counter',
    labels: ['outcome'],
  },
  approvalPrompt: {
    name: 'baton_approval_prompts_total',
    help: 'Approval prompts written to Redis, by channel key.',
    type: 'counter',
    labels: ['channel'],
  },
  approvalSettled: {
    name: 'baton_approval_decision_seconds',
    help: 'Time from approval prompt to its settlement, by final status (approved, always, denied, expired, cancelled, undeliverable).',
    type: 'histogram',
    labels: ['outcome'],
    buckets: APPROVAL_BUCKETS,
  },
  outbox: {
    name: 'baton_outbox_sends_total',
    help: 'Outbox sends by channel and outcome (sent, failed, rate_limited, dropped).',
    type: 'counter',
    labels: ['channel', 'outcome'],
  },
  error: {
    name: 'baton_errors_total',
    help: 'Errors by kind.',
    type: 'counter',
    labels: ['kind'],
  },
} as const satisfies Record<string, Family>;

/** Label values are user-influenced (tool names); cap them so one bad value cannot bloat the hash. */
const MAX_LABEL_CHARS = 64;

/** How long increments are summed in memory before one write. */
const FLUSH_MS = 250;

const NEEDS_ESCAPE = /[\\"\n]/;

export function escapeLabelValue(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return value; // label values are plain words nearly always
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

/** `a="x",b="y"` in the family's label order (no braces, so `le` can be appended). */
function labelString(names: readonly string[], values: readonly string[]): string {
  return names
    .map((n, i) => `${n}="${escapeLabelValue((values[i] ?? '').slice(0, MAX_LABEL_CHARS))}"`)
    .join(',');
}

function formatNumber(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Number.POSITIVE_INFINITY) return '+Inf';
  if (n === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(n);
}

function header(f: { name: string; help: string; type: string }): string[] {
  return [`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.type}`];
}

export interface GaugeSample {
  labels: Record<string, string>;
  value: number;
}

/** A gauge family computed at scrape time (queue depths, channel states), in the same text format. */
export function renderGauge(name: string, help: string, samples: readonly GaugeSample[]): string {
  const lines = header({ name, help, type: 'gauge' });
  for (const s of samples) {
    const keys = Object.keys(s.labels);
    const labels = labelString(
      keys,
      keys.map((k) => s.labels[k] ?? ''),
    );
    lines.push(`${name}${labels ? `{${labels}}` : ''} ${formatNumber(s.value)}`);
  }
  return `${lines.join('\n')}\n`;
}

// Hash fields: `c|<name>|<labels>` for counters; `h|<name>|<bucket index|sum|count>|<labels>` for histograms.
// Labels go last because only they may contain `|`.
const counterField = (f: Family, values: readonly string[]) => `c|${f.name}|${labelString(f.labels, values)}`;
const histField = (f: Family, part: string, labels: string) => `h|${f.name}|${part}|${labels}`;

function parseField(field: string): { kind: string; name: string; part: string; labels: string } | null {
  const [kind, name, ...rest] = field.split('|');
  if (!kind || !name) return null;
  if (kind === 'c') return { kind, name, part: '', labels: rest.join('|') };
  const [part, ...labels] = rest;
  return part === undefined ? null : { kind, name, part, labels: labels.join('|') };
}

export function createMetricsStore(redis: Redis, prefix: string, logger: Logger): MetricsStore {
  const key = `${prefix}:metrics`;
  const inFlight = new Set<Promise<void>>();
  let lastWarnAt = 0;

  // Increments are summed in memory and written in one MULTI at most every FLUSH_MS, so recording costs a
  // turn no Redis round trip; a crash loses at most that window of observations.
  const ints = new Map<string, number>();
  const floats = new Map<string, number>();
  let timer: NodeJS.Timeout | null = null;
  const send = (): Promise<void> => {
    if (ints.size === 0 && floats.size === 0) return Promise.resolve();
    const batch = { ints: [...ints], floats: [...floats] };
    ints.clear();
    floats.clear();
    // A client that is not connected would queue the write until Redis returns: drop it instead.
    if (redis.status !== 'ready') {
      warn(new Error(`redis connection is ${redis.status}`));
      return Promise.resolve();
    }
    const m: ChainableCommander = redis.multi();
    for (const [field, n] of batch.ints) m.hincrby(key, field, n);
    for (const [field, n] of batch.floats) m.hincrbyfloat(key, field, n);
    const p: Promise<void> = m
      .exec()
      .then(() => undefined)
      .catch(warn)
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
    return p;
  };
  const add = (map: Map<string, number>, field: string, n: number) => {
    map.set(field, (map.get(field) ?? 0) + n);
    if (!timer) {
      timer = setTimeout(() => {
        timer = null;
        void send();
      }, FLUSH_MS);
      timer.unref();
    }
  };
  function warn(err: unknown): void {
    // At most one line a minute: a Redis outage must not flood the log from every tool call.
    if (Date.now() - lastWarnAt < 60_000) return;
    lastWarnAt = Date.now();
    logger.warn({ err: errorMessage(err) }, 'metrics write dropped');
  }

  const observe = (f: Family, seconds: number, values: readonly string[]) => {
    const labels = labelString(f.labels, values);
    const buckets = f.buckets ?? [];
    const idx = buckets.findIndex((b) => seconds <= b);
    add(ints, histField(f, idx === -1 ? 'inf' : String(idx), labels), 1);
    add(floats, histField(f, 'sum', labels), seconds);
    add(ints, histField(f, 'count', labels), 1);
  };
  const count = (f: Family, values: readonly string[]) => add(ints, counterField(f, values), 1);

  return {
    observeTurn(latencyMs, outcome) {
      observe(METRIC_FAMILIES.turn, latencyMs / 1000, [outcome]);
    },
    observeModelRequest(latencyMs, providerType, ok) {
      observe(METRIC_FAMILIES.model, latencyMs / 1000, [providerType, ok ? 'ok' : 'error']);
    },
    countToolCall(tool, success) {
      count(METRIC_FAMILIES.tool, [tool, String(success)]);
    },
    countApproval(outcome) {
      count(METRIC_FAMILIES.approval, [outcome]);
    },
    countApprovalPrompt(channel) {
      count(METRIC_FAMILIES.approvalPrompt, [channel]);
    },
    observeApprovalSettled(outcome, seconds) {
      observe(METRIC_FAMILIES.approvalSettled, Math.max(0, seconds), [outcome]);
    },
    countOutbox(channel, outcome) {
      count(METRIC_FAMILIES.outbox, [channel, outcome]);
    },
    countError(kind) {
      count(METRIC_FAMILIES.error, [kind]);
    },
    async flush() {
      if (timer) clearTimeout(timer);
      timer = null;
      await send();
      await Promise.all([...inFlight]);
    },
    async render() {
      return renderFamilies(await redis.hgetall(key));
    },
  };
}

/** Renders the stored hash: every family with HELP/TYPE, histograms with cumulative buckets. */
export function renderFamilies(raw: Record<string, string>): string {
  const byName = new Map<string, Map<string, Map<string, number>>>();
  for (const [field, value] of Object.entries(raw)) {
    const p = parseField(field);
    const n = Number(value);
    if (!p || !Number.isFinite(n)) continue; // a damaged value is left out, never rendered as NaN
    const series = byName.get(p.name) ?? new Map<string, Map<string, number>>();
    byName.set(p.name, series);
    const parts = series.get(p.labels) ?? new Map<string, number>();
    series.set(p.labels, parts);
    parts.set(p.part, n);
  }
  const out: string[] = [];
  for (const f of Object.values(METRIC_FAMILIES) as Family[]) {
    out.push(...header(f));
    const series = [...(byName.get(f.name) ?? new Map<string, Map<string, number>>())].sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    for (const [labels, parts] of series) {
      if (f.type === 'counter') {
        out.push(`${f.name}{${labels}} ${formatNumber(parts.get('') ?? 0)}`);
        continue;
      }
      let cumulative = 0;
      (f.buckets ?? []).forEach((le, i) => {
        cumulative += parts.get(String(i)) ?? 0;
        out.push(`${f.name}_bucket{${labels},le="${formatNumber(le)}"} ${cumulative}`);
      });
      const total = parts.get('count') ?? 0;
      out.push(`${f.name}_bucket{${labels},le="+Inf"} ${total}`);
      out.push(`${f.name}_sum{${labels}} ${formatNumber(parts.get('sum') ?? 0)}`);
      out.push(`${f.name}_count{${labels}} ${total}`);
    }
  }
  return `${out.join('\n')}\n`;
}
