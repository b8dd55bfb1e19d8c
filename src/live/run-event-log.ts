// Run events in Redis: one stream per live execution tree (any gateway reads any worker's runs, and one that
// starts mid-turn reads the tree from its start), written in batches off the run's path: emit() only queues,
// and a failed write is logged and dropped, never a run's problem.
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { parseRecord } from '../core/redis-record.ts';
import { loadRedisScript } from '../core/redis-script.ts';
import {
  type NewRunEvent,
  newRunEvent,
  type RunEvent,
  type RunEventSink,
  runEventSchema,
} from '../run-contract/run-events.ts';

const appendEvents = loadRedisScript(join(import.meta.dirname, 'lua', 'append-run-events-2.lua'));

/** A tree's events outlive its runs long enough for a late reader (the dashboard's recent turns). */
const TREE_TTL_SECS = 60 * 60;
const MAX_EVENTS_PER_TREE = 5000;
/** Events waiting to be written; beyond this new ones are dropped (a stalled Redis must not grow memory). */
const MAX_QUEUED = 10_000;

export const runEventKeys = (prefix: string) => ({
  /** `{root}`: a tree's stream and counter share a Cluster hash slot. */
  stream: (root: string) => `${prefix}:run-events:{${root}}`,
  seq: (root: string) => `${prefix}:run-events:{${root}}:seq`,
  /** Published with the tree's root id after each batch. */
  channel: `${prefix}:run-events`,
});

export interface RunEventLog extends RunEventSink {
  /** Resolves once every event emitted so far was written (or dropped). */
  flush(): Promise<void>;
  /** A tree's events after `afterSeq`, in order; unreadable entries are skipped (logged). */
  read(treeRootId: string, afterSeq?: number): Promise<RunEvent[]>;
}

export function createRunEventLog(redis: Redis, prefix: string, logger: Pick<Logger, 'warn'>): RunEventLog {
  const keys = runEventKeys(prefix);
  let queued = new Map<string, NewRunEvent[]>();
  let size = 0;
  let dropped = 0;
  let writing: Promise<void> = Promise.resolve();
  let scheduled = false;

  async function write(batch: Map<string, NewRunEvent[]>): Promise<void> {
    await Promise.all(
      [...batch].map(([root, events]) =>
        appendEvents(
          redis,
          [keys.stream(root), keys.seq(root)],
          [TREE_TTL_SECS, MAX_EVENTS_PER_TREE, keys.channel, root, ...events.map((e) => JSON.stringify(e))],
        ).catch((err: unknown) =>
          logger.warn(
            { root_run_id: root, err: errorMessage(err) },
            'run events not written (live view only)',
          ),
        ),
      ),
    );
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      const batch = queued;
      queued = new Map();
      size = 0;
      if (dropped > 0) {
        logger.warn({ dropped }, 'run events dropped: the writer is behind (live view only)');
        dropped = 0;
      }
      writing = writing.then(() => write(batch));
    });
  }

  return {
    emit(run, body) {
      if (size >= MAX_QUEUED) {
        dropped++;
        return;
      }
      const event = newRunEvent(run, body);
      const list = queued.get(event.root_run_id);
      if (list) list.push(event);
      else queued.set(event.root_run_id, [event]);
      size++;
      schedule();
    },
    async flush() {
      await new Promise<void>((resolve) => setImmediate(resolve));
      await writing;
    },
    async read(root, afterSeq = 0) {
      const rows = (await redis.xrange(keys.stream(root), '-', '+')) as [string, string[]][];
      const out: RunEvent[] = [];
      for (const [id, fields] of rows) {
        const f: Record<string, string> = {};
        for (let i = 0; i + 1 < fields.length; i += 2) f[fields[i]!] = fields[i + 1]!;
        const seq = Number(f.seq);
        const key = `${keys.stream(root)}[${id}]`;
        const event = parseRecord(runEventSchema, f.e ?? null, { logger, key, what: 'run event' });
        if (event && Number.isInteger(seq) && seq > afterSeq) out.push({ ...event, seq });
      }
      return out;
    },
  };
}
