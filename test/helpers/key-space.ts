// The key space a test's keys live in: its unique prefix and a partition count (1 unless the test says).
import type { Redis } from 'ioredis';
import { allPartitions, type KeySpace } from '../../src/core/key-layout.ts';
import { outboxStreamKeyOf } from '../../src/queue/names.ts';

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
