// The old layout's non-conversation work (delegate and cron queues under the bare prefix, running background tasks,
// pending approvals) is found, so the start-up layout check can refuse until it is drained.
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { legacyGlobalWork } from '../../../src/queue/legacy-global-work.ts';
import { delegateQueuePrefix } from '../../../src/queue/queue-prefixes.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';

const prefix = uniquePrefix('legacy-global');
const redis: Redis = testRedis();

afterEach(() => deletePrefix(redis, prefix));
afterAll(() => redis.disconnect());

describe('legacyGlobalWork', () => {
  it('names each old-layout queue or set that still holds work', async () => {
    const old = new Queue('delegate', { connection: testRedis(), prefix });
    await old.add('run', { task_id: 't1' });
    await old.add('later', { task_id: 't2' }, { delay: 60_000 });
    await old.close();
    await redis.sadd(`${prefix}:delegate-inflight`, 't0');
    await redis.zadd(`${prefix}:approvals:pending`, 1, 'a1');
    expect(await legacyGlobalWork(redis, prefix)).toEqual([
      `${prefix}:delegate:wait (1)`,
      `${prefix}:delegate:delayed (1)`,
      `${prefix}:delegate-inflight (1)`,
      `${prefix}:approvals:pending (1)`,
    ]);
  });

  it('is empty for the new layout and for a cron schedule waiting for its next fire', async () => {
    const current = new Queue('delegate', { connection: testRedis(), prefix: delegateQueuePrefix(prefix) });
    await current.add('run', { task_id: 't1' });
    await current.close();
    const oldCron = new Queue('cron', { connection: testRedis(), prefix });
    await oldCron.upsertJobScheduler('job-a', { pattern: '0 0 1 1 *' }, { name: 'fire', data: {} });
    await oldCron.close();
    expect(await legacyGlobalWork(redis, prefix)).toEqual([]);
  });
});
