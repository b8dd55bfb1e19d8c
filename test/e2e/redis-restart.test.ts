// Redis goes away mid-run and comes back: processes wait and reconnect; no message is lost or answered twice.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrivateRedis, startPrivateRedis } from '../helpers/private-redis.ts';
import {
  createRuntimeHarness,
  echoResponder,
  type RuntimeHarness,
  runtimeToml,
} from '../helpers/runtime-harness.ts';

const TOML = runtimeToml();

let redis: PrivateRedis;
let h: RuntimeHarness;

beforeAll(async () => {
  redis = await startPrivateRedis();
  h = await createRuntimeHarness('redis-restart', TOML, { redisUrl: redis.url, lockDurationMs: 2000 });
});
afterAll(async () => {
  await h.close();
  await redis.close();
});

describe('a Redis restart mid-run', () => {
  it('every message still gets exactly one reply, in order', async () => {
    h.server.respond(echoResponder(() => 10));
    const chats = 10;
    const perChat = 10;
    for (let i = 0; i < perChat; i++) {
      for (let c = 0; c < chats; c++) await h.local.inject({ chat: `r${c}`, text: `m${c}-${i}` });
    }
    await h.local.waitForReplies(20, { timeoutMs: 20_000 });
    await redis.kill();
    await sleep(500); // Redis is really down for a while: clients must wait, not crash
    await redis.start();
    await h.local.waitForReplies(chats * perChat, { timeoutMs: 60_000 });
    for (let c = 0; c < chats; c++) {
      const texts = h.local.replies.filter((r) => r.to.chat === `r${c}`).map((r) => r.text);
      expect(texts).toEqual(Array.from({ length: perChat }, (_, i) => `echo: m${c}-${i}`));
    }
    expect(h.local.replies).toHaveLength(chats * perChat);
  }, 90_000);
});
