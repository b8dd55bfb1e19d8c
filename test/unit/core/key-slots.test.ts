// Every Lua script and every multi-key command site touches one hash slot under the Cluster layout
// (spec/config.md §15.1.1). Scripts are found by glob: a new script without an entry here fails this test.
// Keys are built by the real key builders (prefix `baton`, 16 partitions), never typed by hand.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { approvalKeys } from '../../../src/approval/record.ts';
import { failureCounterKey } from '../../../src/core/failure-limiter.ts';
import { type KeySpace, partitionOf, slotOf } from '../../../src/core/key-layout.ts';
import { costKeys } from '../../../src/cost/ledger.ts';
import { taskKeys } from '../../../src/delegation/task-records.ts';
import { treeBudgetKey } from '../../../src/delegation/tree-budget.ts';
import { leaseKey } from '../../../src/fleet/channel-lease.ts';
import { refusedSendersKeys } from '../../../src/fleet/refused-senders.ts';
import { runningTurnsKey } from '../../../src/fleet/running-turns.ts';
import { groupBySlot, slotWriteKeys } from '../../../src/live/run-event-log.ts';
import { drainJobKey } from '../../../src/queue/conversation-inbox.ts';
import {
  CRON_QUEUE,
  DELEGATE_QUEUE,
  inboxKeys,
  liveKeys,
  liveTurnKey,
  outboxStreamKey,
  replyIdempotencyKey,
  replySentKey,
  TURNS_QUEUE,
  turnFilesKey,
  turnsQueuePrefix,
} from '../../../src/queue/names.ts';
import { cronQueuePrefix, delegateQueuePrefix } from '../../../src/queue/queue-prefixes.ts';
import { actionBucketKey } from '../../../src/security/action-buckets.ts';
import { historyKeys } from '../../../src/session/history-store.ts';
import { sessionIndexKey } from '../../../src/session/session-index.ts';
import { sampleConversations } from '../../helpers/key-space.ts';

const SRC = join(import.meta.dirname, '../../../src');
// 16 partitions (the Cluster default): the conversation entries (conv) build their keys with `space`.
const space = { prefix: 'baton', partitions: 16 } as const;
const { prefix } = space;

/** Sample ids, shaped as in production. */
const ids = {
  approval: '0b5e7c1e-6a39-4a4e-9f57-3f1f6c1f2a10',
  task: '5c1d9f3a-2b7e-4c0a-8d6f-1e2a3b4c5d6e',
  roots: ['r-1c9e', 'r-77aa', 'r-f00d'],
  sessions: sampleConversations,
  aliases: ['main', 'researcher', 'writer'],
};

interface Site {
  /** The code that issues the call: file, and function or command. */
  site: string;
  keys: string[];
}

const cost = costKeys(prefix, new Date('2026-12-04T21:00:00Z'));
const approvals = approvalKeys(prefix);
const tasks = taskKeys(prefix);
const refused = refusedSendersKeys(prefix);
const approvalToken = approvals.token('telegram.main', '42', 'ab12cd');
/** One run-event flush: twelve trees, each a new turn of its own session (the odd session keys among them). */
const flushRoots = Array.from({ length: 12 }, (_, i) => `0b5e7c1e-6a39-4a4e-9f57-3f1f6c1f2a${10 + i}`);
const flushTurns = flushRoots.map((root, i) => ({
  root,
  at: 1_700_000_000_000 + i,
  session: ids.sessions.at(-1 - i) ?? '',
}));
const flushCalls = (s: KeySpace) =>
  groupBySlot(s, new Map(flushRoots.map((r) => [r, [{}]])), flushTurns).map((g) => ({
    g,
    keys: slotWriteKeys(s, g),
  }));
const runEventCalls = flushCalls(space);
const oneRunEventCall = flushCalls({ prefix, partitions: 1 });

/** The conversation path's calls, one per sample conversation (`ids.sessions` are conversation ids). */
const inbox = inboxKeys(space);
const root = ids.roots[0] ?? '';
const turnId = 'telegram.main:update-77';
const channelOf = (c: string) => c.slice(0, c.indexOf(':'));
const convSites = (site: string, keys: (c: string) => string[]): Site[] =>
  ids.sessions.map((c) => ({ site: `${site} (${c})`, keys: keys(c) }));

/** Each script (path under src) with the key lists its callers pass. */
const scripts: Record<string, Site[]> = {
  'approval/lua/create-approval-3.lua': [
    {
      site: 'approval/approval-store.ts create',
      keys: [approvals.record(ids.approval), approvalToken, approvals.pending],
    },
  ],
  'approval/lua/heartbeat-approval-1.lua': [
    { site: 'approval/approval-store.ts heartbeat', keys: [approvals.record(ids.approval)] },
  ],
  'approval/lua/set-message-ref-1.lua': [
    { site: 'approval/approval-store.ts setMessageRef', keys: [approvals.record(ids.approval)] },
  ],
  'approval/lua/settle-approval-4.lua': [
    {
      site: 'approval/approval-settle.ts',
      keys: [approvals.record(ids.approval), approvalToken, approvals.pending, approvals.audit],
    },
    {
      site: 'approval/approval-settle.ts (record too damaged to name its token)',
      keys: [approvals.record(ids.approval), approvals.unreadableToken, approvals.pending, approvals.audit],
    },
  ],
  'core/lua/reserve-attempts-var.lua': [
    {
      site: 'core/failure-limiter.ts reserve',
      keys: [
        failureCounterKey(prefix, 'login-addr:203.0.113.9'),
        failureCounterKey(prefix, { name: 'login-user:alice', allowed: 5 }),
      ],
    },
  ],
  'cost/lua/record-cost-var.lua': [
    {
      site: 'cost/ledger.ts record (per-agent)',
      keys: [
        cost.day,
        cost.month,
        cost.tokens,
        cost.warned.day,
        cost.warned.month,
        cost.agent('writer'),
        cost.descendants('main'),
        cost.descendants('researcher'),
      ],
    },
    {
      site: 'cost/ledger.ts record (shared only)',
      keys: [cost.day, cost.month, cost.tokens, cost.warned.day, cost.warned.month],
    },
  ],
  'cost/lua/reserve-cost-var.lua': [
    {
      site: 'cost/ledger.ts reserve',
      keys: [cost.day, cost.month, ...ids.aliases.flatMap((a) => [cost.agent(a), cost.descendants(a)])],
    },
  ],
  'delegation/lua/admit-delegate-task-2.lua': [
    { site: 'delegation/delegate-tasks.ts admit', keys: [tasks.record(ids.task), tasks.inflight] },
  ],
  'delegation/lua/settle-delegate-task-2.lua': [
    { site: 'delegation/delegate-tasks.ts settle', keys: [tasks.record(ids.task), tasks.inflight] },
  ],
  'delegation/lua/update-running-task-1.lua': [
    { site: 'delegation/delegate-tasks.ts updateRunning', keys: [tasks.record(ids.task)] },
  ],
  'delegation/lua/finish-task-1.lua': [
    { site: 'delegation/task-records.ts finish', keys: [tasks.record(ids.task)] },
  ],
  'delegation/lua/reserve-tree-slot-1.lua': [
    {
      site: 'delegation/tree-budget.ts reserveChild/reserveRoot',
      keys: [treeBudgetKey(prefix, ids.roots[0] ?? '')],
    },
  ],
  'delegation/lua/take-last-tree-slot-1.lua': [
    { site: 'delegation/tree-budget.ts reserveRoot', keys: [treeBudgetKey(prefix, ids.roots[0] ?? '')] },
  ],
  'fleet/lua/note-refused-sender-3.lua': [
    {
      site: 'fleet/refused-senders.ts note',
      keys: [refused.gate('telegram.main', '777'), refused.list, refused.records],
    },
  ],
  'fleet/lua/release-presence-1.lua': [
    {
      site: 'fleet/channel-lease.ts, fleet/channel-presence.ts release',
      keys: [leaseKey(prefix, 'telegram.main')],
    },
  ],
  'fleet/lua/renew-lease-1.lua': [
    { site: 'fleet/channel-lease.ts renew', keys: [leaseKey(prefix, 'telegram.main')] },
  ],
  'live/lua/append-run-events-var.lua': [
    ...runEventCalls.map((c, i) => ({
      site: `live/run-event-log.ts flush, call ${i + 1} of ${runEventCalls.length}`,
      keys: c.keys,
    })),
    ...oneRunEventCall.map((c) => ({ site: 'live/run-event-log.ts flush (one partition)', keys: c.keys })),
  ],
  'security/check-and-record-action-1.lua': [
    {
      site: 'security/action-buckets.ts tryRecord',
      keys: [actionBucketKey(prefix, 'main', 'telegram.main:42')],
    },
  ],
  // The conversation path: every key under the conversation's partition tag (one call per sample conversation:
  // plain, threaded, odd characters; test/helpers/key-space.ts).
  'queue/lua/ingest-event-8.lua': convSites('queue/conversation-inbox.ts accept', (c) => [
    inbox.dedupe(c, channelOf(c), 'evt-1'),
    inbox.inbox(c),
    inbox.active(c),
    inbox.seq(c),
    replySentKey(space, c),
    sessionIndexKey(space, c),
    drainJobKey(space, c),
    inbox.kickOwed(c),
  ]),
  // A turns queue's wait, prioritized, delayed and marker keys, as BullMQ names them (gated-worker.ts).
  'queue/lua/clear-idle-marker-4.lua': Array.from({ length: space.partitions }, (_, n) => ({
    site: `queue/gated-worker.ts nothingWaits, partition ${n}`,
    keys: ['wait', 'prioritized', 'delayed', 'marker'].map(
      (k) => `${turnsQueuePrefix(space, n)}:${TURNS_QUEUE}:${k}`,
    ),
  })),
  'queue/lua/begin-drain-3.lua': convSites('queue/conversation-inbox.ts begin', (c) => [
    inbox.inbox(c),
    runningTurnsKey(space, c),
    historyKeys(space, 'main', c)[0],
  ]),
  'queue/lua/settle-turn-11.lua': convSites('queue/conversation-inbox.ts settle', (c) => [
    inbox.inbox(c),
    inbox.active(c),
    replyIdempotencyKey(space, c, turnId),
    outboxStreamKey(space, channelOf(c), c),
    runningTurnsKey(space, c),
    ...historyKeys(space, 'main', c),
    sessionIndexKey(space, c),
    liveTurnKey(space, c, turnId),
    turnFilesKey(space, c, turnId),
    historyKeys(space, 'other-agent', c)[0],
  ]),
  'queue/lua/drop-unreadable-head-4.lua': convSites('queue/conversation-inbox.ts readable', (c) => [
    inbox.inbox(c),
    inbox.active(c),
    inbox.seq(c),
    outboxStreamKey(space, channelOf(c), c),
  ]),
  'queue/lua/enqueue-reply-2.lua': convSites('queue/reply-outbox.ts enqueueOutboxEntry', (c) => [
    replyIdempotencyKey(space, c, 'cron:job-1:fire-2'),
    outboxStreamKey(space, channelOf(c), c),
  ]),
  'queue/lua/claim-reply-slot-1.lua': convSites('queue/reply-order.ts claim', (c) => [
    replySentKey(space, c),
  ]),
  'queue/lua/ack-replies-var.lua': convSites('queue/outbox-stream.ts flushAcks', (c) => [
    outboxStreamKey(space, channelOf(c), c),
    replySentKey(space, c),
  ]),
  'queue/lua/enqueue-live-op-3.lua': convSites('queue/live-shows.ts show', (c) => [
    liveKeys(space, c, root).state,
    outboxStreamKey(space, channelOf(c), c),
    liveTurnKey(space, c, turnId),
  ]),
  'queue/lua/live-begin-2.lua': convSites('queue/live-slots.ts begin', (c) => [
    liveKeys(space, c, root).state,
    liveKeys(space, c, root).busy('preview'),
  ]),
  'queue/lua/live-end-2.lua': convSites('queue/live-slots.ts end', (c) => [
    liveKeys(space, c, root).state,
    liveKeys(space, c, root).busy('progress'),
  ]),
  'session/lua/append-history-3.lua': convSites('session/history-store.ts append', (c) => [
    ...historyKeys(space, 'main', c),
    sessionIndexKey(space, c),
  ]),
  'fleet/lua/clear-running-turn-1.lua': convSites('fleet/running-turns.ts markDone', (c) => [
    runningTurnsKey(space, c),
  ]),
};

/** Multi-key commands outside scripts (MGET, MULTI/EXEC, explicit pipelines) with the keys they name. */
const commandSites: Site[] = [
  {
    site: 'cost/ledger.ts read: MGET',
    keys: [cost.day, cost.month, ...ids.aliases.flatMap((a) => [cost.agent(a), cost.descendants(a)])],
  },
  { site: 'delegation/delegate-tasks.ts admit: MULTI of index entries', keys: ids.aliases.map(tasks.index) },
  {
    site: 'delegation/delegate-tasks.ts listForAlias: pipeline of records',
    keys: [tasks.record(ids.task), tasks.record('9d0e8f7a-1b2c-4d3e-8f4a-5b6c7d8e9f00')],
  },
  {
    site: 'delegation/task-list.ts list: pipeline of records (one SCAN batch)',
    keys: [tasks.record(ids.task), tasks.record('9d0e8f7a-1b2c-4d3e-8f4a-5b6c7d8e9f00')],
  },
  {
    site: 'approval/approval-reads.ts: pipeline of records',
    keys: [approvals.record(ids.approval), approvals.record('1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b')],
  },
  {
    site: 'fleet/refused-senders.ts forget: MULTI',
    keys: [refused.list, refused.records, refused.gate('telegram.main', '777')],
  },
  {
    site: 'core/failure-limiter.ts refund: MULTI',
    keys: [
      failureCounterKey(prefix, 'login-addr:203.0.113.9'),
      failureCounterKey(prefix, 'login-user:alice'),
    ],
  },
];

/** BullMQ's own scripts touch many keys of one queue: a queue's keys, as BullMQ names them, share its prefix's tag. */
const bullKeys = (queuePrefix: string, queue: string) =>
  [
    'wait',
    'active',
    'delayed',
    'prioritized',
    'completed',
    'failed',
    'events',
    'meta',
    'id',
    'stalled',
    'job-1',
  ].map((part) => `${queuePrefix}:${queue}:${part}`);
commandSites.push(
  {
    site: 'queue/cron-scheduler.ts, cron-worker.ts: BullMQ cron queue',
    keys: bullKeys(cronQueuePrefix(prefix), CRON_QUEUE),
  },
  {
    site: 'queue/delegate-queue.ts, delegate-worker.ts: BullMQ delegate queue',
    keys: bullKeys(delegateQueuePrefix(prefix), DELEGATE_QUEUE),
  },
);

commandSites.push(
  ...convSites('session/history-store.ts clear: DEL list and turn ids', (c) => historyKeys(space, 'main', c)),
  ...convSites('queue/turn-queue.ts, turn-worker.ts: BullMQ turns queue of the partition', (c) => {
    const job = drainJobKey(space, c);
    return [job, ...bullKeys(job.slice(0, job.lastIndexOf(`:${TURNS_QUEUE}:`)), TURNS_QUEUE)];
  }),
);
// web/sessions/sessions-page.ts readSessions: single-key LLEN/HEXISTS per row (the rows span partitions).

const scriptFiles = (readdirSync(SRC, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.lua') && !f.endsWith('.fragment.lua'))
  .map((f) => relative(SRC, join(SRC, f)).split('\\').join('/'))
  .sort();

/** The key count a script's name declares (`-<n>.lua`), or null for `-var.lua`. */
const declaredKeys = (file: string) => {
  const n = /-(\d+)\.lua$/.exec(file)?.[1];
  return n === undefined ? null : Number(n);
};

describe('one hash slot per script and command (Cluster layout)', () => {
  it('every script under src has an entry, and every entry names a script', () => {
    expect(scriptFiles.length).toBeGreaterThan(20);
    const listed = new Set(Object.keys(scripts));
    expect(scriptFiles.filter((f) => !listed.has(f))).toEqual([]);
    expect([...listed].filter((f) => !scriptFiles.includes(f))).toEqual([]);
  });

  for (const [file, sites] of Object.entries(scripts)) {
    it(`${file}: each call's keys are in one slot`, () => {
      expect(sites.length).toBeGreaterThan(0);
      for (const s of sites) {
        const n = declaredKeys(file);
        if (n !== null) expect({ site: s.site, keys: s.keys.length }).toEqual({ site: s.site, keys: n });
        expect(s.keys.length).toBeGreaterThan(0);
        expect({ site: s.site, slots: [...new Set(s.keys.map(slotOf))].length }).toEqual({
          site: s.site,
          slots: 1,
        });
      }
    });
  }

  for (const s of commandSites) {
    it(`${s.site}: one slot`, () => {
      expect(s.keys.length).toBeGreaterThan(1);
      expect([...new Set(s.keys.map(slotOf))]).toHaveLength(1);
    });
  }

  it('a run-event flush is one call per partition it touches: every tree and turn index in one of them', () => {
    for (const calls of [runEventCalls, oneRunEventCall]) {
      expect(calls.flatMap((c) => c.g.trees.map(([r]) => r)).sort()).toEqual([...flushRoots].sort());
      expect(calls.flatMap((c) => c.g.turns.map((t) => t.session)).sort()).toEqual(
        flushTurns.map((t) => t.session).sort(),
      );
    }
    const partitions = new Set([
      ...flushRoots.map((r) => partitionOf(r, space.partitions)),
      ...flushTurns.map((t) => partitionOf(t.session, space.partitions)),
    ]);
    expect(partitions.size).toBeGreaterThan(1);
    expect(runEventCalls).toHaveLength(partitions.size);
  });

  it('with one partition, a flush of several trees and sessions is exactly one call', () => {
    expect(oneRunEventCall).toHaveLength(1);
    expect(oneRunEventCall[0]?.keys).toHaveLength(flushRoots.length * 2 + flushTurns.length);
  });
});
