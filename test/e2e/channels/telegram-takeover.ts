// The Telegram takeover drill: two `baton gateway` processes on one bot token (and a `baton worker`): one holds the
// channel lease and polls; SIGKILLed in the middle of a 50-message burst, the other takes the channel over within
// 15 s and every message gets exactly one reply, in order. Updates Telegram hands out again (unconfirmed before
// the crash) are deduplicated by update id. One suite for one Redis (telegram-failover.test.ts) and for a Redis
// Cluster (test/e2e/cluster/telegram-takeover.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisTarget } from '../../../src/core/redis-target.ts';
import { OUTBOX_GROUP, outboxStreamKeyOf } from '../../../src/queue/names.ts';
import type { BatonProcess } from '../../helpers/baton-process.ts';
import { everyPartition, spaceOf } from '../../helpers/key-space.ts';
import { askedOf } from '../../helpers/model-requests.ts';
import { waitFor } from '../../helpers/wait.ts';
import { ALICE, createLane, type Lane } from './lane.ts';
import { type TelegramDriver, telegramDriver } from './platforms.ts';

const KEY = 'telegram.home';
const TAKEOVER_MS = 15_000;
/** A Redis the suite runs against (the shared test Redis when none), started in beforeAll. */
export interface SuiteRedis {
  target: RedisTarget;
  /** `[redis] partitions` in effect (1 for one Redis, 16 by default on a Cluster). */
  partitions: number;
  close(): Promise<void>;
}

/** Defines the suite: `title` for describe, `name` for the lane's prefix, `redis` to run on another Redis. */
export function telegramTakeoverSuite(title: string, name: string, redis?: () => Promise<SuiteRedis>): void {
  let lane: Lane;
  let tg: TelegramDriver;
  let a: BatonProcess;
  let portA: number;
  let portB: number;
  let deployment: SuiteRedis | undefined;

  beforeAll(async () => {
    deployment = await redis?.();
    lane = await createLane(name, '', deployment?.target);
    tg = await telegramDriver();
    // Each turn takes a moment, so the kill lands while the burst is still being answered.
    lane.model.respond((req) => ({ text: `echo: ${askedOf(req)}`, delayMs: 100 }));
    const first = await lane.writeConfig('gateway-a', tg.toml);
    const second = await lane.writeConfig('gateway-b', tg.toml);
    const worker = await lane.writeConfig('worker', tg.toml);
    portA = first.port;
    portB = second.port;
    a = await lane.start('gateway', first.path);
    await tg.ready(); // A polls: it took the lease before B started
    await Promise.all([lane.start('gateway', second.path), lane.start('worker', worker.path)]);
  }, 90_000);

  afterAll(async () => {
    await lane?.close();
    await tg?.close();
    await deployment?.close();
  });

  async function holderSeenBy(port: number): Promise<string | null> {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    const body = (await res.json()) as { channel_holders?: Record<string, string | null> };
    return body.channel_holders?.[KEY] ?? null;
  }

  /** No reply is between its send and its acknowledgement (so the kill cannot make one repeat). */
  async function outboxIdle(): Promise<boolean> {
    const space = spaceOf(lane.prefix, deployment?.partitions ?? 1);
    const pending = await everyPartition(space, async (n) => {
      const [count] = (await lane.redis.xpending(outboxStreamKeyOf(space, KEY, n), OUTBOX_GROUP)) as [number];
      return Number(count);
    });
    return pending === 0;
  }

  describe(title, () => {
    it('one holds the channel; the other takes over a SIGKILLed holder mid-burst, nothing lost or repeated', async () => {
      const chat = tg.place('chat');
      const say = (text: string) =>
        tg.fake.injectMessage({ chat: tg.chatId(chat), from: ALICE.telegram, text });
      const holder = await holderSeenBy(portA);
      expect(holder).not.toBeNull();
      expect(await holderSeenBy(portB)).toBe(holder);

      const texts = Array.from({ length: 50 }, (_, i) => `m${i + 1}`);
      const updates = texts
        .slice(0, 25)
        .map((text) => tg.fake.injectMessage({ chat: 5001, from: ALICE.telegram, text }));
      // Kill while message 10's turn holds the model and reply 9 is acknowledged: mid-burst, no send cut off.
      await waitFor(() => lane.model.requests.some((r) => askedOf(r) === 'm10'), 30_000, 'turn m10');
      await waitFor(async () => tg.posts(chat).length >= 9 && (await outboxIdle()), 10_000, 'reply m9 acked');
      a.kill('SIGKILL');
      await a.exited;
      const killedAt = Date.now();

      // Telegram hands unconfirmed updates to the next consumer: a few handled ones come again, then the rest.
      for (const u of updates.slice(20))
        tg.fake.injectUpdate({ message: u.message }, { updateId: u.updateId, redeliver: true });
      for (const text of texts.slice(25)) say(text);

      await waitFor(
        async () => {
          const now = await holderSeenBy(portB);
          return now !== null && now !== holder;
        },
        TAKEOVER_MS + 5000,
        'the standby gateway holding the channel',
        200,
      );
      expect(Date.now() - killedAt).toBeLessThan(TAKEOVER_MS);

      // A last message: a repeated reply would come before its answer (one conversation, in order).
      say('m51');
      await waitFor(() => tg.posts(chat).some((p) => p.text === 'echo: m51'), 60_000, 'the reply to m51');
      expect(tg.posts(chat).map((p) => p.text)).toEqual([...texts, 'm51'].map((t) => `echo: ${t}`));
      for (const t of [...texts, 'm51'])
        expect(lane.model.requests.filter((r) => askedOf(r) === t)).toHaveLength(1);
      // Never two consumers polling the bot at once.
      expect(tg.fake.maxConcurrentPolls()).toBe(1);
    }, 90_000);
  });
}
