// The failover drill of issue 19 (spec/config.md §15.1.1): baton's gateway and two workers on a Sentinel
// deployment (master + replica), a burst of 500 messages over 10 conversations, the master SIGKILLed
// mid-burst. The sentinel promotes the replica; every accepted message is answered, none twice, in order per
// conversation, and the fleet keeps answering new messages after the promotion.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectCleanFailover } from '../../helpers/failover-expect.ts';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../../helpers/runtime-harness.ts';
import { type SentinelRedis, startSentinelRedis } from '../../helpers/sentinel-redis.ts';

let sentinel: SentinelRedis;
let h: RuntimeHarness;
beforeAll(async () => {
  sentinel = await startSentinelRedis();
  h = await createRuntimeHarness(
    'failover',
    runtimeToml(`[redis]\n${sentinel.toml}\n[worker]\nconcurrency = 8\n`),
    { workers: 2 },
  );
}, 60_000);
afterAll(async () => {
  await h?.close();
  await sentinel?.close();
});

describe('Sentinel failover drill', () => {
  it('loses no accepted message, answers none twice, keeps order, and answers after the promotion', async () => {
    await expectCleanFailover(h, sentinel, 'failover drill');
  }, 240_000);
});
