// `npm run bench`'s throughput row alone: one worker, instant model, 3,000 turns over 300 conversations, each round
// against raw BullMQ measured just before it. `node test/bench/throughput-lane.ts [rounds]`.
import { REDIS_URL } from '../helpers/redis.ts';
import { measureBatonTurns } from './baton-turns.ts';
import { measureRawBullmq } from './raw-bullmq.ts';

const b = await measureBatonTurns(REDIS_URL, {
  latencyTurns: 100,
  throughputTurns: 3000,
  conversations: 300,
  concurrency: 16,
  rounds: Number(process.argv[2] ?? 3),
  rawThroughput: async () =>
    (await measureRawBullmq(REDIS_URL, { latencyJobs: 50, throughputJobs: 5000, concurrency: 16 }))
      .jobsPerSec,
});
console.log(
  `median ${(100 * b.medianRatio).toFixed(1)} % rounds ${b.ratios.map((r) => (100 * r).toFixed(1)).join(' / ')}`,
);
process.exit(0);
