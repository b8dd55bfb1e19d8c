// Task records in Redis: the status of record for subagent and background runs (delegate.md §11.3).
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { globalTag } from '../core/key-layout.ts';
import { createSilentLogger, type Logger } from '../core/logger.ts';
import { checkRecord } from '../core/redis-record.ts';
import { loadRedisScript } from '../core/redis-script.ts';

const finishTask = loadRedisScript(join(import.meta.dirname, 'lua', 'finish-task-1.lua'));
const TERMINAL_TTL_SECS = 7 * 24 * 60 * 60;
const RUNNING_TTL_SECS = 8 * 24 * 60 * 60;

const TASK_STATUSES = ['running', 'completed', 'failed', 'cancelled', 'lost', 'timed_out'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export type TerminalStatus = Exclude<TaskStatus, 'running'>;

const nullableString = z.string().nullable();
const taskRecordSchema = z.object({
  task_id: z.string(),
  kind: z.enum(['delegate', 'subagent']),
  agent: z.string(),
  chain: z.array(z.string()),
  mode: z.enum(['bounded', 'independent']).nullable(),
  status: z.enum(TASK_STATUSES),
  output: nullableString,
  error: nullableString,
  depth: z.number(),
  sender: nullableString,
  owner: nullableString,
  heartbeat_at: nullableString,
  progress: z.record(z.string(), z.unknown()).nullable(),
  timeout_budget_secs: z.number().nullable(),
  parent_tool_call_id: nullableString,
  started_at: z.string(),
  finished_at: nullableString,
  /** The root conversation that started it (run/task-scope.ts); absent on older records: visible to none. */
  scope: nullableString.optional(),
});

export type TaskRecord = z.infer<typeof taskRecordSchema>;

export interface TaskRecords {
  create(record: TaskRecord): Promise<void>;
  get(taskId: string): Promise<TaskRecord | null>;
  /** Compare-and-set from `running`; false when another terminal status won. */
  finish(
    taskId: string,
    status: Exclude<TaskStatus, 'running'>,
    fields: Partial<TaskRecord>,
  ): Promise<boolean>;
  heartbeat(taskId: string, at?: Date): Promise<void>;
}

/**
 * Background tasks' keys share one hash tag: admission checks the fleet-wide in-flight set and writes the record
 * in one script, settling moves both (spec/config.md §15.1.1). The delegate queue's BullMQ prefix is the same tag.
 */
export const taskKeys = (prefix: string) => {
  const tag = globalTag(prefix, 'tasks');
  return {
    /** A task record (hash). */
    record: (id: string) => `${tag}:task:${id}`,
    /** What SCAN matches to find every record (task-list.ts). */
    recordPattern: `${tag}:task:*`,
    /** Running delegate task ids across the deployment (set; delegate.md §11.1 cap). */
    inflight: `${tag}:inflight`,
    /** An alias's delegate task ids by start ms (sorted set), for listing a chain member's tasks. */
    index: (alias: string) => `${tag}:index:${alias}`,
  };
};

export const taskKey = (prefix: string, id: string) => taskKeys(prefix).record(id);

/** Hash field/value pairs: every field but `status` is stored as JSON. */
export const encodeTaskFields = (fields: Partial<TaskRecord>) =>
  Object.entries(fields).flatMap(([k, v]) => (k === 'status' ? [] : [k, JSON.stringify(v ?? null)]));

/** Where unreadable records are logged: `key` names the hash. */
export interface TaskReadContext {
  logger: Pick<Logger, 'warn'>;
  key: string;
}

/**
 * A stored hash back into a record; null when there is none, and null (logged) when it cannot be read: one
 * damaged or other-version record must not stop a reaper pass or a listing.
 */
export function decodeTaskRecord(raw: Record<string, string>, ctx: TaskReadContext): TaskRecord | null {
  if (!raw.status) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    try {
      out[k] = k === 'status' ? v : JSON.parse(v);
    } catch {
      out[k] = undefined; // not JSON: the schema names the field
    }
  }
  return checkRecord(taskRecordSchema, out, { ...ctx, what: 'task record' }) ?? null;
}

export { RUNNING_TTL_SECS, TERMINAL_TTL_SECS };

export function createTaskRecords(
  redis: Redis,
  prefix: string,
  logger: Pick<Logger, 'warn'> = createSilentLogger(),
): TaskRecords {
  const key = (id: string) => taskKey(prefix, id);
  const encode = encodeTaskFields;
  return {
    async create(record) {
      await redis
        .multi()
        .hset(key(record.task_id), 'status', record.status, ...encode(record))
        .expire(key(record.task_id), RUNNING_TTL_SECS)
        .exec();
    },
    async get(taskId) {
      return decodeTaskRecord(await redis.hgetall(key(taskId)), { logger, key: key(taskId) });
    },
    async finish(taskId, status, fields) {
      const finished = { finished_at: new Date().toISOString(), ...fields };
      const res = await finishTask(redis, [key(taskId)], [status, TERMINAL_TTL_SECS, ...encode(finished)]);
      return Number(res) === 1;
    },
    async heartbeat(taskId, at = new Date()) {
      await redis.hset(key(taskId), 'heartbeat_at', JSON.stringify(at.toISOString()));
    },
  };
}
