// Lists background delegate task records (delegate.md §11.3) for the ops API, newest first, elapsed_secs computed on read.
import type { Redis } from 'ioredis';
import { scanBatches } from '../core/redis-scan.ts';
import { taskKeys } from './task-records.ts';

/** A task record as the API shows it: every field except `output` (read it with check_result), plus elapsed_secs. */
export interface ListedTask {
  task_id: string;
  kind: 'delegate';
  agent: string;
  chain: string[];
  mode: string | null;
  status: string;
  error: string | null;
  depth: number | null;
  sender: string | null;
  owner: string | null;
  heartbeat_at: string | null;
  /** The stored progress object with `elapsed_secs` filled in, or null until the worker starts. */
  progress: Record<string, unknown> | null;
  timeout_budget_secs: number | null;
  parent_tool_call_id: string | null;
  started_at: string;
  finished_at: string | null;
  elapsed_secs: number;
}

export interface TaskListOptions {
  /** Only records with this status (e.g. `running`). */
  status?: string;
  /** At most this many, newest first (default 100). */
  limit?: number;
}

export interface TaskList {
  list(opts?: TaskListOptions): Promise<ListedTask[]>;
}

export const DEFAULT_TASK_LIMIT = 100;

/** Whole seconds from start to finish, or to `now` while running (delegate.md §11.6). */
export function elapsedSecs(startedAt: string, finishedAt: string | null, now: number): number {
  const start = Date.parse(startedAt);
  const end = finishedAt ? Date.parse(finishedAt) : now;
  if (Number.isNaN(start) || Number.isNaN(end)) return 0;
  return Math.max(0, Math.floor((end - start) / 1000));
}

/** Fields are stored as JSON except `status`; a value that is not JSON is kept as the raw string. */
function decodeHash(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k === 'status' || typeof v !== 'string') {
      out[k] = v;
      continue;
    }
    try {
      out[k] = JSON.parse(v);
    } catch {
      out[k] = v;
    }
  }
  return out;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function toListed(r: Record<string, unknown>, now: number): ListedTask | null {
  const taskId = str(r.task_id);
  const startedAt = str(r.started_at);
  const status = str(r.status);
  if (r.kind !== 'delegate' || !taskId || !startedAt || !status) return null;
  const finishedAt = str(r.finished_at);
  const elapsed = elapsedSecs(startedAt, finishedAt, now);
  return {
    task_id: taskId,
    kind: 'delegate',
    agent: str(r.agent) ?? '',
    chain: Array.isArray(r.chain) ? r.chain.filter((c): c is string => typeof c === 'string') : [],
    mode: str(r.mode),
    status,
    error: str(r.error),
    depth: num(r.depth),
    sender: str(r.sender),
    owner: str(r.owner),
    heartbeat_at: str(r.heartbeat_at),
    progress: isObject(r.progress) ? { ...r.progress, elapsed_secs: elapsed } : null,
    timeout_budget_secs: num(r.timeout_budget_secs),
    parent_tool_call_id: str(r.parent_tool_call_id),
    started_at: startedAt,
    finished_at: finishedAt,
    elapsed_secs: elapsed,
  };
}

export function createTaskList(redis: Redis, prefix: string, now: () => number = Date.now): TaskList {
  const keys = taskKeys(prefix);
  const keyPrefix = keys.record('');
  return {
    async list(opts = {}) {
      const found: ListedTask[] = [];
      const seen = new Set<string>();
      const at = now();
      for await (const batch of scanBatches(redis, keys.recordPattern)) {
        // Records are `…:task:<uuid>`; anything deeper is some other structure under the same tag.
        const records = batch.filter((k) => !k.slice(keyPrefix.length).includes(':') && !seen.has(k));
        if (records.length === 0) continue;
        for (const k of records) seen.add(k);
        const pipeline = redis.pipeline();
        for (const k of records) pipeline.hgetall(k);
        for (const [err, raw] of (await pipeline.exec()) ?? []) {
          if (err || !isObject(raw)) continue; // e.g. WRONGTYPE: not a record
          const task = toListed(decodeHash(raw), at);
          if (task && (opts.status === undefined || task.status === opts.status)) found.push(task);
        }
      }
      found.sort((a, b) => Date.parse(b.started_at) - Date.parse(a.started_at));
      return found.slice(0, opts.limit ?? DEFAULT_TASK_LIMIT);
    },
  };
}
