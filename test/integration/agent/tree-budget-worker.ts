// Child process for the tree-budget test: races `count` child reservations and prints how many succeeded.
import { createTreeBudget } from '../../../src/delegation/tree-budget.ts';
import { testRedis } from '../../helpers/redis.ts';

const [prefix, rootRunId, count] = process.argv.slice(2);
const redis = testRedis();
const budget = createTreeBudget(redis, prefix!);
const results = await Promise.all(
  Array.from({ length: Number(count) }, () => budget.reserveChild(rootRunId!)),
);
process.stdout.write(String(results.filter(Boolean).length));
await redis.quit();
