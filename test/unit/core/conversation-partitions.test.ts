// Conversations spread over the partitions of the Cluster layout (spec/config.md §15.1.1), and a reply to a
// recipient lands in its conversation's partition. Each conversation script's one slot is key-slots.test.ts's.
import { describe, expect, it } from 'vitest';
import { allPartitions, slotOf } from '../../../src/core/key-layout.ts';
import {
  inboxKeys,
  outboxStreamKey,
  recipientConversation,
  TURNS_QUEUE,
  turnsQueuePrefix,
} from '../../../src/queue/names.ts';
import { sampleConversations } from '../../helpers/key-space.ts';

const space = { prefix: 'baton', partitions: 16 } as const;
const inbox = inboxKeys(space);

describe('conversation partitions (Cluster layout)', () => {
  it('a reply to a recipient lands in its conversation partition, and the conversations spread over partitions', () => {
    for (const c of sampleConversations.slice(0, 20)) {
      const chat = c.split(':')[1] ?? '';
      const to = { channel: 'telegram.main', chat };
      expect(recipientConversation(to)).toBe(c);
      expect(outboxStreamKey(space, 'telegram.main', recipientConversation(to))).toBe(
        outboxStreamKey(space, 'telegram.main', c),
      );
    }
    const used = new Set(sampleConversations.map((c) => slotOf(inbox.inbox(c))));
    expect(used.size).toBeGreaterThan(8);
    // Every partition's queue prefix is its own tag: partition n's BullMQ keys never share partition m's slot.
    const queueSlots = allPartitions(space).map((n) =>
      slotOf(`${turnsQueuePrefix(space, n)}:${TURNS_QUEUE}:wait`),
    );
    expect(new Set(queueSlots).size).toBe(16);
  });
});
