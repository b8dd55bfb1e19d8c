// Run events in Redis: one stream per live execution tree (any gateway reads any worker's runs, and one that
// starts mid-turn reads the tree from its start), written in batches off the run's path: emit() only queues,
// and a failed write is logged and dropped, never a run's problem.
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { errorMessage } from '../core/errors.ts';
import { conversationTag, type KeySpace, partitionOf, partitionTag, slotOf } from '../core/key-layout.ts';
import type { Logger } from '../core/logger.ts';
import { checkRecord, parseRecord } from '../core/redis-record.ts';
import { loadRedisScript } from '../core/redis-script.ts';
import {
  type NewRunEvent,
  newRunEvent,
  type RunEvent,
  type RunEventSink,
  runEventSchema,
} from '../run-contract/run-events.ts';
import { compactEvent, expandEvent } from './stored-event.ts';

const appendEvents = loadRedisScript(join(import.meta.dirname, 'lua', 'append-run-events-var.lua'));

/** A tree's events outlive its runs long enough for a late reader (the dashboard's recent turns). */
const TREE_TTL_SECS = 60 * 60;
/** Stream entries per tree (each holds one flush's events of that tree). */
const MAX_ENTRIES_PER_TREE = 2000;
/** Events waiting to be written; beyond this new ones are dropped (a stalled Redis must not grow memory). */
const MAX_QUEUED = 10_000;
/**
 * Events are written at most this often, all trees in one call: a fast turn's start and finish go out together,
 * and a busy worker pays one round trip per flush, not one per turn. A live view is edited about once a second.
 */
const FLUSH_EVERY_MS = 100;

/** Turns kept in a session's index (live.md §6 "recent turns"; the running one included). */
export const RECENT_TURNS = 10;
/** The index outlives its trees (a background task keeps its tree alive); a gone tree is skipped on read. */
const TURNS_TTL_SECS = 24 * 60 * 60;

/** The pub/sub channels of the run events: per deployment, whatever the partition count. */
export const runEventChannels = (prefix: string) => ({
  /** Published after each flush with the root ids it wrote, one per line. */
  channel: `${prefix}:run-events`,
  /** Published after a flush that started turns: a JSON array of their session keys. */
  turnsChannel: `${prefix}:run-events:turns`,
});

/** What follows a stream key's partition tag; the root id comes after it. */
const STREAM_PART = ':run-events:';

// Live view only: keys of the previous layout (`{<prefix>:r:<root>}:run-events`, an untagged session index) are
// not migrated; they expire (1 h, the index 24 h).
export const runEventKeys = (space: KeySpace) => {
  const { prefix, partitions } = space;
  const treeTag = (root: string) => partitionTag(prefix, partitionOf(root, partitions));
  return {
    ...runEventChannels(prefix),
    /**
     * Under the tag of the root's partition, so one flush writes every tree of a partition in one call (with the
     * default one partition, all of them): a tree's stream and its counter.
     */
    stream: (root: string) => `${treeTag(root)}${STREAM_PART}${root}`,
    seq: (root: string) => `${treeTag(root)}:run-events-seq:${root}`,
    /** What SCAN matches to find every tree's stream, in every partition (`partitionTag`), not the counters. */
    streamPattern: `{${prefix}:p*}${STREAM_PART}*`,
    /**
     * A session's recent turns: root run id → start ms, the newest RECENT_TURNS. Under its conversation's
     * partition tag, so it joins the call of that partition's trees.
     */
    turns: (session: string) => `${conversationTag(space, session)}:session-turns:${session}`,
    /** The root id of a stream key (what `stream` was given). */
    rootOf: (streamKey: string) =>
      streamKey.slice(streamKey.indexOf(`}${STREAM_PART}`) + STREAM_PART.length + 1),
  };
};

/** A root (or cron) run's start, indexed under its session in the same flush as its events. */
export interface NewTurn {
  root: string;
  at: number;
  session: string;
}

/** One script call's share of a flush: the trees and new turns whose keys sit in one hash slot. */
export interface SlotWrite {
  trees: [string, unknown[]][];
  turns: NewTurn[];
}

/**
 * Each tree's keys carry its root's partition tag and a session's index its conversation's, so one flush is one
 * script call per partition it touches (one in all with the default one partition; on one Redis the calls leave
 * together, without waiting for each other's reply). Grouped by hash slot, so every call is one slot on a Cluster.
 */
export function groupBySlot(space: KeySpace, batch: Map<string, unknown[]>, started: NewTurn[]): SlotWrite[] {
  const keys = runEventKeys(space);
  const groups = new Map<number, SlotWrite>();
  const group = (key: string) => {
    const slot = slotOf(key);
    const g = groups.get(slot) ?? { trees: [], turns: [] };
    groups.set(slot, g);
    return g;
  };
  for (const [root, events] of batch) group(keys.stream(root)).trees.push([root, events]);
  for (const t of started) group(keys.turns(t.session)).turns.push(t);
  return [...groups.values()];
}

/** The keys of one call of append-run-events-var.lua, in its order: each tree's stream and counter, then indexes. */
export function slotWriteKeys(space: KeySpace, g: SlotWrite): string[] {
  const keys = runEventKeys(space);
  return [
    ...g.trees.flatMap(([root]) => [keys.stream(root), keys.seq(root)]),
    ...g.turns.map((t) => keys.turns(t.session)),
  ];
}

export interface RunEventLog extends RunEventSink {
  /** Resolves once every event emitted so far was written (or dropped). */
  flush(): Promise<void>;
  /** A tree's events after `afterSeq`, in order; unreadable entries are skipped (logged). */
  read(treeRootId: string, afterSeq?: number): Promise<RunEvent[]>;
  /**
   * The same, reading only the stream entries after `fromEntry` ('-': from the start), so a follower reads each
   * entry once; `lastEntry` is where its next read starts.
   */
  readFrom(
    treeRootId: string,
    afterSeq: number,
    fromEntry: string,
  ): Promise<{ events: RunEvent[]; lastEntry: string }>;
}

/** Folds `next` into `last` when both are deltas of the same run's same request; true when folded. */
function mergeDelta(last: NewRunEvent | undefined, next: NewRunEvent): boolean {
  if (last?.type !== 'answer_delta' || next.type !== 'answer_delta') return false;
  if (last.run_id !== next.run_id || last.iteration !== next.iteration) return false;
  if (next.restart) {
    last.delta = next.delta;
    last.restart = true;
  } else last.delta += next.delta;
  last.at = next.at;
  return true;
}

export function createRunEventLog(redis: Redis, space: KeySpace, logger: Pick<Logger, 'warn'>): RunEventLog {
  const keys = runEventKeys(space);
  let queued = new Map<string, NewRunEvent[]>();
  let turns: NewTurn[] = [];
  let size = 0;
  let dropped = 0;
  let writing: Promise<void> = Promise.resolve();

  async function writeSlot(g: SlotWrite): Promise<void> {
    const keyList = slotWriteKeys(space, g);
    const args: (string | number)[] = [
      TREE_TTL_SECS,
      MAX_ENTRIES_PER_TREE,
      keys.channel,
      g.trees.length,
      TURNS_TTL_SECS,
      RECENT_TURNS,
      keys.turnsChannel,
    ];
    for (const [root, events] of g.trees) args.push(root, events.length, JSON.stringify(events));
    for (const t of g.turns) args.push(t.root, t.at, t.session);
    await appendEvents(redis, keyList, args).catch((err: unknown) =>
      logger.warn(
        { trees: g.trees.length, err: errorMessage(err) },
        'run events not written (live view only)',
      ),
    );
  }

  async function write(batch: Map<string, NewRunEvent[]>, started: NewTurn[]): Promise<void> {
    if (batch.size === 0) return;
    // Stored without what the stream implies (stored-event.ts): most of an event's envelope is its tree's.
    const stored = new Map([...batch].map(([root, events]) => [root, events.map(compactEvent)]));
    const groups = groupBySlot(space, stored, started);
    // Trees first: a reader woken by a new turn then finds the turn's first events (each call writes its trees
    // before its turns; with several partitions a turn's tree may be in a sibling call of this flush, whose
    // message wakes a follower, subscribed before it reads).
    await Promise.all(groups.filter((g) => g.trees.length > 0).map(writeSlot));
    await Promise.all(groups.filter((g) => g.trees.length === 0).map(writeSlot));
  }

  let timer: NodeJS.Timeout | null = null;
  function flushNow(): void {
    timer = null;
    const batch = queued;
    const started = turns;
    queued = new Map();
    turns = [];
    size = 0;
    if (dropped > 0) {
      logger.warn({ dropped }, 'run events dropped: the writer is behind (live view only)');
      dropped = 0;
    }
    writing = writing.then(() => write(batch, started));
  }

  function schedule(): void {
    if (timer) return;
    timer = setTimeout(flushNow, FLUSH_EVERY_MS);
    timer.unref();
  }

  const readFrom: RunEventLog['readFrom'] = async (root, afterSeq, fromEntry) => {
    const start = fromEntry === '-' ? '-' : `(${fromEntry}`;
    const rows = (await redis.xrange(keys.stream(root), start, '+')) as [string, string[]][];
    const out: RunEvent[] = [];
    for (const [id, fields] of rows) {
      const f: Record<string, string> = {};
      for (let i = 0; i + 1 < fields.length; i += 2) f[fields[i]!] = fields[i + 1]!;
      const first = Number(f.seq);
      const ctx = { logger, key: `${keys.stream(root)}[${id}]`, what: 'run events' };
      const events = parseRecord(z.array(z.unknown()), f.events ?? null, ctx);
      if (!events || !Number.isInteger(first)) continue;
      events.forEach((raw, i) => {
        // Each event on its own: one damaged event is skipped (logged), its neighbours are kept.
        const event = checkRecord(runEventSchema, expandEvent(raw, root), { ...ctx, what: 'run event' });
        if (event && first + i > afterSeq) out.push({ ...event, seq: first + i });
      });
    }
    return { events: out, lastEntry: rows.at(-1)?.[0] ?? fromEntry };
  };

  const watchers = new Map<string, Set<(event: NewRunEvent) => void>>();
  function tell(event: NewRunEvent): void {
    for (const listener of watchers.get(event.root_run_id) ?? []) {
      try {
        listener(event);
      } catch (err) {
        logger.warn({ err: errorMessage(err) }, 'run event watcher failed (live view only)');
      }
    }
  }

  return {
    emit(run, body) {
      const event = newRunEvent(run, body);
      tell(event);
      const list = queued.get(event.root_run_id);
      // An answer streams in many small pieces: one flush stores them as one event.
      if (list && mergeDelta(list.at(-1), event)) return;
      if (size >= MAX_QUEUED) {
        dropped++;
        return;
      }
      if (list) list.push(event);
      else queued.set(event.root_run_id, [event]);
      size++;
      if (event.type === 'run_started' && (event.kind === 'root' || event.kind === 'cron'))
        turns.push({ root: event.root_run_id, at: event.at, session: event.session_key });
      schedule();
    },
    watch(root, listener) {
      const set = watchers.get(root) ?? new Set();
      set.add(listener);
      watchers.set(root, set);
      return () => {
        set.delete(listener);
        if (set.size === 0 && watchers.get(root) === set) watchers.delete(root);
      };
    },
    async flush() {
      if (timer) {
        clearTimeout(timer);
        flushNow();
      }
      await writing;
    },
    async read(root, afterSeq = 0) {
      return (await readFrom(root, afterSeq, '-')).events;
    },
    readFrom,
  };
}
