// baton's roles connected through Redis Sentinel (spec/config.md §15.1): the gateway and a worker in this
// process, the local channel and the fake model, every connection (commands, subscribers, blocking readers,
// BullMQ) made from `[redis] sentinels` + `sentinel_master`, the url's host being a name that does not resolve.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL } from '../../helpers/redis.ts';
import {
  createRuntimeHarness,
  echoResponder,
  type RuntimeHarness,
  runtimeToml,
} from '../../helpers/runtime-harness.ts';
import { type SentinelRedis, startSentinelRedis } from '../../helpers/sentinel-redis.ts';

async function keysUnder(url: string, prefix: string): Promise<number> {
  const r = new Redis(url);
  try {
    let [cursor, count] = ['0', 0];
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      [cursor, count] = [next, count + keys.length];
    } while (cursor !== '0');
    return count;
  } finally {
    r.disconnect();
  }
}

let sentinel: SentinelRedis;
let h: RuntimeHarness;
beforeAll(async () => {
  sentinel = await startSentinelRedis();
  h = await createRuntimeHarness('sentinel', runtimeToml(`[redis]\n${sentinel.toml}\n`));
}, 60_000);
afterAll(async () => {
  await h?.close();
  await sentinel?.close();
});

describe('baton through Redis Sentinel', () => {
  it('loads the sentinel form and answers messages in order through the master the sentinel names', async () => {
    expect(h.config.redis).toMatchObject({
      sentinels: [`127.0.0.1:${sentinel.sentinelPort}`],
      sentinel_master: 'baton',
    });
    h.server.respond(echoResponder());
    for (let i = 0; i < 5; i++) {
      expect(await h.local.inject({ chat: 's1', text: `m${i}` })).toMatchObject({ accepted: true });
    }
    const replies = await h.local.waitForReplies(5, { chat: 's1', timeoutMs: 30_000 });
    expect(replies.map((r) => r.text)).toEqual(['echo: m0', 'echo: m1', 'echo: m2', 'echo: m3', 'echo: m4']);
    // The state is on the master the sentinel names, not on the test's usual Redis.
    expect(await keysUnder(`redis://127.0.0.1:${sentinel.masterPort}`, h.prefix)).toBeGreaterThan(0);
    expect(await keysUnder(REDIS_URL, h.prefix)).toBe(0);
  });
});
