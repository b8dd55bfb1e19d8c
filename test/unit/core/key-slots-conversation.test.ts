// The conversation path's scripts and multi-key commands touch one hash slot under the Cluster layout
// (spec/config.md §15.1.1): every key a call names is built by the real builders (prefix `baton`, 16 partitions)
// for many conversations (plain, threaded, odd characters), and all of a call's keys must share one slot.
// The conversation entries of test/unit/core/key-slots.test.ts (its `pendingConv`): each script listed here exists.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conversationId } from '../../../src/channel-host/types.ts';
import { allPartitions, slotOf } from '../../../src/core/key-layout.ts';
import { runningTurnsKey } from '../../../src/fleet/running-turns.ts';
import { drainJobKey } from '../../../src/queue/conversation-inbox.ts';
import {
  inboxKeys,
  liveKeys,
  liveTurnKey,
  outboxStreamKey,
  outboxStreamKeyOf,
  partitionOfConversation,
  recipientConversation,
  replyIdempotencyKey,
  replySentKey,
  TURNS_QUEUE,
  turnFilesKey,
  turnsQueuePrefix,
} from '../../../src/queue/names.ts';
import { historyKeys } from '../../../src/session/history-store.ts';
import { sessionIndexKey } from '../../../src/session/session-index.ts';

const SRC = join(import.meta.dirname, '../../../src');
const space = { prefix: 'baton', partitions: 16 } as const;
const inbox = inboxKeys(space);

/** Conversations as the channels name them: channel, chat, thread (empty or not). */
const conversations = [
  ...Array.from({ length: 40 }, (_, i) => conversationId('telegram.main', String(1000 + i))),
  ...Array.from({ length: 20 }, (_, i) => conversationId('slack.work', `C0${i}`, `17000000${i}.0001`)),
  conversationId('discord.ops', '9', '1'),
  conversationId('web.main', 'alice', 'sess:with:colons'),
  conversationId('local.test', 'chat {braces}'),
];
const root = '0b5e7c1e-6a39-4a4e-9f57-3f1f6c1f2a10';
const turnId = 'telegram.main:update-77';

/** The keys one call names, for conversation `c` (its recipient's channel `channel`). */
type Call = (c: string, channel: string) => string[];

const scripts: Record<string, { site: string; keys: Call }[]> = {
  'queue/lua/ingest-event-7.lua': [
    {
      site: 'queue/conversation-inbox.ts accept',
      keys: (c, channel) => [
        inbox.dedupe(c, channel, 'evt-1'),
        inbox.inbox(c),
        inbox.active(c),
        inbox.seq(c),
        replySentKey(space, c),
        sessionIndexKey(space, c),
        drainJobKey(space, c),
      ],
    },
  ],
  'queue/lua/settle-turn-10.lua': [
    {
      site: 'queue/conversation-inbox.ts settle (the session is the conversation)',
      keys: (c, channel) => [
        inbox.inbox(c),
        inbox.active(c),
        replyIdempotencyKey(space, c, turnId),
        outboxStreamKey(space, channel, c),
        runningTurnsKey(space, c),
        ...historyKeys(space, 'main', c),
        sessionIndexKey(space, c),
        liveTurnKey(space, c, turnId),
        turnFilesKey(space, c, turnId),
      ],
    },
  ],
  'queue/lua/drop-unreadable-head-4.lua': [
    {
      site: 'queue/conversation-inbox.ts readable',
      keys: (c, channel) => [
        inbox.inbox(c),
        inbox.active(c),
        inbox.seq(c),
        outboxStreamKey(space, channel, c),
      ],
    },
  ],
  'queue/lua/enqueue-reply-2.lua': [
    {
      site: 'queue/reply-outbox.ts enqueueOutboxEntry (replies, cards, cron, notices)',
      keys: (c, channel) => [
        replyIdempotencyKey(space, c, 'cron:job-1:fire-2'),
        outboxStreamKey(space, channel, c),
      ],
    },
  ],
  'queue/lua/claim-reply-slot-1.lua': [
    { site: 'queue/reply-order.ts claim', keys: (c) => [replySentKey(space, c)] },
  ],
  'queue/lua/ack-replies-var.lua': [
    {
      // A batch names its stream and the mark of each ordered conversation read from it (outbox-stream.ts keeps
      // only the marks of the stream's own partition).
      site: 'queue/outbox-stream.ts flushAcks',
      keys: (c, channel) => {
        const p = partitionOfConversation(space, c);
        const batch = conversations.filter((o) => partitionOfConversation(space, o) === p);
        return [outboxStreamKeyOf(space, channel, p), ...batch.map((o) => replySentKey(space, o))];
      },
    },
  ],
  'queue/lua/enqueue-live-op-3.lua': [
    {
      site: 'queue/live-shows.ts show',
      keys: (c, channel) => [
        liveKeys(space, c, root).state,
        outboxStreamKey(space, channel, c),
        liveTurnKey(space, c, turnId),
      ],
    },
  ],
  'queue/lua/live-begin-2.lua': [
    {
      site: 'queue/live-slots.ts begin / takePreview',
      keys: (c) => [liveKeys(space, c, root).state, liveKeys(space, c, root).busy('preview')],
    },
  ],
  'queue/lua/live-end-2.lua': [
    {
      site: 'queue/live-slots.ts end',
      keys: (c) => [liveKeys(space, c, root).state, liveKeys(space, c, root).busy('progress')],
    },
  ],
  'session/lua/append-history-3.lua': [
    {
      site: 'session/history-store.ts append (a conversation, a cron session, `main`)',
      keys: (c) => [...historyKeys(space, 'main', c), sessionIndexKey(space, c)],
    },
  ],
  'fleet/lua/clear-running-turn-1.lua': [
    { site: 'fleet/running-turns.ts markDone', keys: (c) => [runningTurnsKey(space, c)] },
  ],
};

/** Multi-key commands outside scripts. */
const commands: { site: string; keys: Call }[] = [
  { site: 'session/history-store.ts clear: DEL list turns', keys: (c) => historyKeys(space, 'main', c) },
  {
    // BullMQ's own scripts name the queue's keys and the job's: one prefix per partition, one slot.
    site: 'queue/turn-queue.ts kick, queue/turn-worker.ts (BullMQ scripts of the turns queue)',
    keys: (c) => {
      const job = drainJobKey(space, c);
      const q = job.slice(0, job.lastIndexOf(':'));
      return [job, `${q}:wait`, `${q}:active`, `${q}:meta`, `${q}:events`, `${q}:marker`, `${q}:id`];
    },
  },
];

const channelOf = (c: string) => c.slice(0, c.indexOf(':'));
const slots = (keys: string[]) => [...new Set(keys.map(slotOf))];

describe('one hash slot per conversation-path script and command (Cluster layout)', () => {
  it('every script listed exists under src', () => {
    expect(Object.keys(scripts).filter((f) => !existsSync(join(SRC, f)))).toEqual([]);
  });

  for (const [file, sites] of Object.entries(scripts)) {
    it(`${file}: each call's keys are in one slot, for every conversation`, () => {
      for (const s of sites) {
        for (const c of conversations) {
          expect({ site: s.site, c, slots: slots(s.keys(c, channelOf(c))).length }).toEqual({
            site: s.site,
            c,
            slots: 1,
          });
        }
      }
    });
  }

  for (const s of commands) {
    it(`${s.site}: one slot, for every conversation`, () => {
      for (const c of conversations)
        expect({ c, slots: slots(s.keys(c, channelOf(c))).length }).toEqual({ c, slots: 1 });
    });
  }

  it('a reply to a recipient lands in its conversation partition, and the conversations spread over partitions', () => {
    for (const c of conversations.slice(0, 20)) {
      const chat = c.split(':')[1] ?? '';
      const to = { channel: 'telegram.main', chat };
      expect(recipientConversation(to)).toBe(c);
      expect(outboxStreamKey(space, 'telegram.main', recipientConversation(to))).toBe(
        outboxStreamKey(space, 'telegram.main', c),
      );
    }
    const used = new Set(conversations.map((c) => slotOf(inbox.inbox(c))));
    expect(used.size).toBeGreaterThan(8);
    // Every partition's queue prefix is its own tag: partition n's BullMQ keys never share partition m's slot.
    const queueSlots = allPartitions(space).map((n) =>
      slotOf(`${turnsQueuePrefix(space, n)}:${TURNS_QUEUE}:wait`),
    );
    expect(new Set(queueSlots).size).toBe(16);
  });
});
