// `npm run bench`'s worker-scaling row alone: one, then two `baton worker` processes (20 ms model, concurrency 4).
// `node test/bench/scaling-lane.ts`.
import { REDIS_URL } from '../helpers/redis.ts';
import { measureWorkerScaling } from './worker-scaling.ts';

const s = await measureWorkerScaling(REDIS_URL);
console.log(
  `${s.ratio.toFixed(2)}× (${s.oneWorkerTurnsPerSec.toFixed(0)} → ${s.twoWorkersTurnsPerSec.toFixed(0)} turns/s)`,
);
process.exit(0);
