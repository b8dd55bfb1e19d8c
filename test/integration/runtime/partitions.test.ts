// Turns on the partitioned layout (spec/config.md §15.1.1), end to end on one Redis: `[redis] partitions = 4`,
// a gateway and two workers. Many conversations spread over the four turns queues and outbox streams; each
// message is answered exactly once, in arrival order per conversation; and `[worker] concurrency` still caps the
// turns one worker runs at once over all its partition workers (gated-worker.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationId } from '../../../src/channel-host/types.ts';
import { outboxStreamKeyOf, partitionOfConversation, replySentKey } from '../../../src/queue/names.ts';
import { activeConversations, everyPartition, runningMarks } from '../../helpers/key-space.ts';
import {
  createRuntimeHarness,
  echoResponder,
  type RuntimeHarness,
  runtimeToml,
} from '../../helpers/runtime-harness.ts';

const CHATS = 24;
const PER_CHAT = 8;
const CONCURRENCY = 3;
const WORKERS = 2;

let h: RuntimeHarness;
beforeAll(async () => {
  h = await createRuntimeHarness(
    'partitions',
    runtimeToml(`[redis]\npartitions = 4\n[worker]\nconcurrency = ${CONCURRENCY}\n`),
    { workers: WORKERS },
  );
});
afterAll(async () => {
  await h?.close();
});

describe('four partitions on one Redis', () => {
  it('answers every message of many conversations once, in order, with at most `concurrency` turns per worker', async () => {
    expect(h.space).toEqual({ prefix: h.prefix, partitions: 4 });
    // Each model call is held a little, so turns overlap; the most at once is what the workers ran together.
    let inFlight = 0;
    let most = 0;
    const echo = echoResponder();
    h.server.respond((req) => {
      inFlight++;
      most = Math.max(most, inFlight);
      const until = new Promise((r) => setTimeout(r, 20)).then(() => {
        inFlight--;
      });
      return { ...echo(req), until };
    });
    const chats = Array.from({ length: CHATS }, (_, c) => `part-${c}`);
    for (let i = 0; i < PER_CHAT; i++) {
      await Promise.all(chats.map((chat) => h.local.inject({ chat, text: `${chat}/m${i}` })));
    }
    await h.local.waitForReplies(CHATS * PER_CHAT, { timeoutMs: 60_000 });
    for (const chat of chats) {
      const texts = h.local.replies.filter((r) => r.to.chat === chat).map((r) => r.text);
      expect(texts).toEqual(Array.from({ length: PER_CHAT }, (_, i) => `echo: ${chat}/m${i}`));
    }
    expect(h.local.replies).toHaveLength(CHATS * PER_CHAT);

    // Every partition served conversations, and each conversation's last-sent mark sits in its own partition.
    const convs = chats.map((chat) => conversationId('local.test', chat));
    expect(new Set(convs.map((c) => partitionOfConversation(h.space, c))).size).toBe(4);
    for (const c of convs) expect(await h.redis.get(replySentKey(h.space, c))).toBe(String(PER_CHAT));
    // The turns overlapped, and never beyond what the workers may run together.
    console.log(
      `partitions: ${CHATS * PER_CHAT} replies over ${CHATS} conversations, at most ${most} turns at once`,
    );
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(CONCURRENCY * WORKERS);

    // Nothing left behind: no busy conversation, no running mark, no unsent reply, in any partition.
    await expect.poll(() => activeConversations(h.redis, h.space)).toEqual([]);
    await expect.poll(() => runningMarks(h.redis, h.space)).toEqual({});
    await expect
      .poll(() => everyPartition(h.space, (n) => h.redis.xlen(outboxStreamKeyOf(h.space, 'local.test', n))))
      .toBe(0);
    // Nothing more arrives once the queues are drained.
    await new Promise((r) => setTimeout(r, 300));
    expect(h.local.replies).toHaveLength(CHATS * PER_CHAT);
  }, 90_000);

  it('caps one worker at `[worker] concurrency` turns over all its partition workers', async () => {
    // One worker, concurrency 2, four partitions: without the shared cap each partition worker could run 2.
    const one = await createRuntimeHarness(
      'partitions-cap',
      runtimeToml('[redis]\npartitions = 4\n[worker]\nconcurrency = 2\n'),
      { workers: 1 },
    );
    try {
      let inFlight = 0;
      let most = 0;
      const echo = echoResponder();
      one.server.respond((req) => {
        inFlight++;
        most = Math.max(most, inFlight);
        const until = new Promise((r) => setTimeout(r, 50)).then(() => {
          inFlight--;
        });
        return { ...echo(req), until };
      });
      const chats = Array.from({ length: 16 }, (_, c) => `cap-${c}`);
      const convs = chats.map((chat) => conversationId('local.test', chat));
      expect(new Set(convs.map((c) => partitionOfConversation(one.space, c))).size).toBe(4);
      await Promise.all(chats.map((chat) => one.local.inject({ chat, text: `${chat}/only` })));
      await one.local.waitForReplies(16, { timeoutMs: 30_000 });
      console.log(
        `partitions: one worker of concurrency 2 over 4 partitions ran at most ${most} turns at once`,
      );
      expect(most).toBe(2);
      expect(one.local.replies.map((r) => r.text).sort()).toEqual(chats.map((c) => `echo: ${c}/only`).sort());
    } finally {
      await one.close();
    }
  }, 60_000);
});
