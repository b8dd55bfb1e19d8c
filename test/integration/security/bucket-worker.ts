// Child process for the action-bucket race test: fires N concurrent tryRecord calls and prints how many succeeded.
import { Redis } from 'ioredis';
import { createActionBuckets } from '../../../src/security/action-buckets.ts';

const [prefix, owner, sender, limitArg, countArg] = process.argv.slice(2);
const redis = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 1 });
try {
  const buckets = createActionBuckets(redis, prefix ?? 'missing');
  const calls = Array.from({ length: Number(countArg) }, () =>
    buckets.tryRecord(owner ?? 'o', sender ?? 's', Number(limitArg)),
  );
  const results = await Promise.all(calls);
  process.stdout.write(`${JSON.stringify({ ok: results.filter(Boolean).length })}\n`);
} finally {
  redis.disconnect();
}
