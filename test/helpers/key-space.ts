// The key space a test's keys live in: its unique prefix and a partition count (1 unless the test says).
import type { Redis } from 'ioredis';
import { conversationId } from '../../src/channel-host/types.ts';
import { allPartitions, type KeySpace } from '../../src/core/key-layout.ts';
import { runningTurnsKeyOf } from '../../src/fleet/running-turns.ts';
import { inboxActiveKey, outboxStreamKeyOf } from '../../src/queue/names.ts';

/** Conversations as the channels name them (channel, chat, thread: empty or not, odd characters), for layout tests. */
export const sampleConversations: readonly string[] = [
  ...Array.from({ length: 40 }, (_, i) => conversationId('telegram.main', String(1000 + i))),
  ...Array.from({ length: 20 }, (_, i) => conversationId('slack.work', `C0${i}`, `17000000${i}.0001`)),
  conversationId('discord.ops', '9', '1'),
  conversationId('web.main', 'alice', 'sess:with:colons'),
  conversationId('local.test', 'chat {braces}'),
];

export const spaceOf = (prefix: string, partitions = 1): KeySpace => ({ prefix, partitions });

/** The sum of a count read in every partition (queue lengths, busy sets) of a key space. */
export async function everyPartition(
  space: KeySpace,
  count: (n: number) => Promise<number>,
): Promise<number> {
  const counts = await Promise.all(allPartitions(space).map(count));
  return counts.reduce((a, b) => a + b, 0);
}

/** Every entry of a channel's outbox, all partitions' streams read in turn (each stream in its own order). */
export async function outboxEntries(redis: Redis, space: KeySpace, channelKey: string) {
  const parts = await Promise.all(
    allPartitions(space).map((n) => redis.xrange(outboxStreamKeyOf(space, channelKey, n), '-', '+')),
  );
  return parts.flat();
}

/** Every running-turn mark (session key → mark JSON) of every partition. */
export async function runningMarks(redis: Redis, space: KeySpace): Promise<Record<string, string>> {
  const parts = await Promise.all(
    allPartitions(space).map((n) => redis.hgetall(runningTurnsKeyOf(space, n))),
  );
  return Object.assign({}, ...parts);
}

/** Every conversation with waiting events, over all partitions' busy sets. */
export async function activeConversations(redis: Redis, space: KeySpace): Promise<string[]> {
  const parts = await Promise.all(allPartitions(space).map((n) => redis.smembers(inboxActiveKey(space, n))));
  return parts.flat();
}
