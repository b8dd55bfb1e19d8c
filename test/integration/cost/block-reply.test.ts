// mode "block" through the real worker: the user gets a clear reply, the provider is never called.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createCostLedger } from '../../../src/cost/ledger.ts';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../../helpers/runtime-harness.ts';

const TOML = runtimeToml(`
[cost]
daily_limit_usd = 1.0

[cost.enforcement]
mode = "block"
`);

let h: RuntimeHarness;
beforeAll(async () => {
  h = await createRuntimeHarness('cost-block-reply', TOML);
});
afterAll(() => h.close());

describe('a blocked root turn in a chat', () => {
  it('ends with an error reply naming the limit, without a model request', async () => {
    await h.redis.set(createCostLedger(h.redis, h.prefix, createSilentLogger()).keys().day, 1_250_000);
    await h.local.inject({ chat: 'c1', text: 'hello' });
    const [reply] = await h.local.waitForReplies(1, { chat: 'c1' });
    expect(reply?.text).toBe(
      '⚠️ Sorry, I could not answer: shared daily cost limit reached ($1.25 of $1.00); try again after 00:00 UTC',
    );
    expect(h.server.requests).toHaveLength(0);
  });
});
