// Background delegate tasks in Redis: admission with the fleet-wide in-flight cap, settling, progress, listing.
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { changeArgs } from '../core/dashboard-changes.ts';
import { createSilentLogger, type Logger } from '../core/logger.ts';
import { loadRedisScript } from '../core/redis-script.ts';
import {
  decodeTaskRecord,
  encodeTaskFields,
  RUNNING_TTL_SECS,
  type TaskRecord,
  TERMINAL_TTL_SECS,
  type TerminalStatus,
  taskKeys,
} from './task-records.ts';

const admitScript = loadRedisScript(join(import.meta.dirname, 'lua', 'admit-delegate-task-2.lua'));
const settleScript = loadRedisScript(join(import.meta.dirname, 'lua', 'settle-delegate-task-2.lua'));
const updateScript = loadRedisScript(join(import.meta.dirname, 'lua', 'update-running-task-1.lua'));

/** delegate.md §11.1: in flight across the whole deployment. */
export const MAX_IN_FLIGHT = 128;

export interface DelegateTasks {
  /** The pub/sub channel on which every settled task id is published. */
  readonly settledChannel: string;
  /** False when the in-flight set is at the cap; nothing is written then. */
  admit(record: TaskRecord): Promise<boolean>;
  /** Compare-and-set from running; also leaves the in-flight set and publishes the id. */
  settle(taskId: string, status: TerminalStatus, fields: Partial<TaskRecord>): Promise<boolean>;
  /** Writes fields while the task is running (owner, progress, heartbeat_at). */
  updateRunning(taskId: string, fields: Partial<TaskRecord>): Promise<boolean>;
  get(taskId: string): Promise<TaskRecord | null>;
  /** Delegate records whose chain contains `alias`, oldest first. */
  listForAlias(alias: string): Promise<TaskRecord[]>;
  inFlight(): Promise<string[]>;
  /** Drops an id from the in-flight set without touching its record (a record that vanished). */
  forgetInFlight(taskId: string): Promise<void>;
}

export function createDelegateTasks(
  redis: Redis,
  prefix: string,
  logger: Pick<Logger, 'warn'> = createSilentLogger(),
): DelegateTasks {
  const keys = taskKeys(prefix);
  const inflightKey = keys.inflight;
  const indexKey = keys.index;
  const settledChannel = `${prefix}:delegate-settled`;
  const key = keys.record;
  return {
    settledChannel,
    async admit(record) {
      const at = Date.parse(record.started_at);
      // The index is written first: an id indexed without a record is skipped on read, never the reverse.
      const idx = redis.multi();
      for (const a of new Set(record.chain))
        idx.zadd(indexKey(a), String(at), record.task_id).expire(indexKey(a), RUNNING_TTL_SECS);
      await idx.exec();
      const res = await admitScript(
        redis,
        [key(record.task_id), inflightKey],
        [
          record.task_id,
          MAX_IN_FLIGHT,
          RUNNING_TTL_SECS,
          record.status,
          ...changeArgs(prefix, 'tasks', record.task_id),
          ...encodeTaskFields(record),
        ],
      );
      if (Number(res) === 1) return true;
      const undo = redis.multi();
      for (const a of new Set(record.chain)) undo.zrem(indexKey(a), record.task_id);
      await undo.exec();
      return false;
    },
    async settle(taskId, status, fields) {
      const all = { finished_at: new Date().toISOString(), ...fields };
      const res = await settleScript(
        redis,
        [key(taskId), inflightKey],
        [
          status,
          TERMINAL_TTL_SECS,
          settledChannel,
          taskId,
          ...changeArgs(prefix, 'tasks', taskId),
          ...encodeTaskFields(all),
        ],
      );
      return Number(res) === 1;
    },
    async updateRunning(taskId, fields) {
      const args = [...changeArgs(prefix, 'tasks', taskId), ...encodeTaskFields(fields)];
      return Number(await updateScript(redis, [key(taskId)], args)) === 1;
    },
    async get(taskId) {
      return decodeTaskRecord(await redis.hgetall(key(taskId)), { logger, key: key(taskId) });
    },
    async listForAlias(alias) {
      // Records expire after 7 days; their index entries are pruned on read.
      const horizon = Date.now() - RUNNING_TTL_SECS * 1000;
      await redis.zremrangebyscore(indexKey(alias), '-inf', String(horizon));
      const ids = await redis.zrange(indexKey(alias), '0', '-1');
      const pipe = redis.pipeline();
      for (const id of ids) pipe.hgetall(key(id));
      const rows = (await pipe.exec()) ?? [];
      const out: TaskRecord[] = [];
      for (const [i, [err, raw]] of rows.entries()) {
        const at = { logger, key: key(ids[i] ?? '?') };
        const rec = err ? null : decodeTaskRecord(raw as Record<string, string>, at);
        if (rec?.kind === 'delegate' && rec.chain.includes(alias)) out.push(rec);
      }
      return out;
    },
    inFlight: () => redis.smembers(inflightKey),
    async forgetInFlight(taskId) {
      await redis.srem(inflightKey, taskId);
    },
  };
}
