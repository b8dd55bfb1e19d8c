// The key space a test's keys live in: its unique prefix and a partition count (1 unless the test says).
import { allPartitions, type KeySpace } from '../../src/core/key-layout.ts';

export const spaceOf = (prefix: string, partitions = 1): KeySpace => ({ prefix, partitions });

/** The sum of a count read in every partition (queue lengths, busy sets) of a key space. */
export async function everyPartition(
  space: KeySpace,
  count: (n: number) => Promise<number>,
): Promise<number> {
  const counts = await Promise.all(allPartitions(space).map(count));
  return counts.reduce((a, b) => a + b, 0);
}
