// A platform that has already delivered an event (the Discord gateway, a Slack Socket Mode envelope)
// never sends it again: when handing it to the runtime fails (Redis briefly away), the adapter retries it.
import { afterEach, describe, expect, it } from 'vitest';
import { createDiscordAdapter } from '../../../channels/discord/discord-adapter.ts';
import { lastSeenKey } from '../../../channels/discord/last-seen.ts';
import type { ChannelHost, InboundEvent, ReceiveResult } from '../../../src/channel-host/types.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { startFakeDiscordServer } from '../../fakes/discord-server.ts';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { waitFor } from '../../helpers/wait.ts';
import { discordOnFake, type OnFake, slackSocketOnFake } from './on-fake.ts';

/** Throws on the first `failures` hand-overs, as ChannelHost does when Redis is unreachable. */
function failingHost(failures: number | (() => boolean)): {
  host: ChannelHost;
  attempts: InboundEvent[];
  taken: InboundEvent[];
} {
  const attempts: InboundEvent[] = [];
  const taken: InboundEvent[] = [];
  const host: ChannelHost = {
    async receive(e): Promise<ReceiveResult> {
      attempts.push(e as InboundEvent);
      const failing = typeof failures === 'number' ? attempts.length <= failures : failures();
      if (failing) throw new Error('Connection is closed.');
      taken.push(e as InboundEvent);
      return { accepted: true, conversation: 'c' };
    },
  };
  return { host, attempts, taken };
}

let running: OnFake<unknown> | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

describe('an event whose hand-over fails is retried, not lost', () => {
  it('discord: a message arrives once the host recovers', async () => {
    const { host, attempts, taken } = failingHost(2);
    const on = await discordOnFake(host, 'retry');
    running = on;
    on.fake.injectMessage({ dmUserId: '42', content: 'still there?' });
    await waitFor(() => taken.length === 1, 10_000, 'the message handed over');
    expect(attempts).toHaveLength(3);
    expect(taken[0]).toMatchObject({ kind: 'message', text: 'still there?' });
  });

  it('slack socket mode: a message arrives once the host recovers', async () => {
    const { host, attempts, taken } = failingHost(2);
    const on = await slackSocketOnFake(host, 'retry', 'retry');
    running = on;
    on.fake.injectMessage({ channel: 'D1', channel_type: 'im', user: 'U1', text: 'still there?' });
    await waitFor(() => taken.length === 1, 10_000, 'the message handed over');
    expect(attempts).toHaveLength(3);
    expect(taken[0]).toMatchObject({ kind: 'message', text: 'still there?' });
  });
});

describe('slack socket mode: the envelope is acknowledged only once its event is handed over', () => {
  it('holds the ack while the hand-over runs', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const taken: string[] = [];
    const host: ChannelHost = {
      async receive(e) {
        const event = e as InboundEvent & { text: string };
        if (event.text === 'held') await gate;
        taken.push(event.text);
        return { accepted: true, conversation: 'c' };
      },
    };
    const on = await slackSocketOnFake(host, 'held', 'held');
    running = on;
    const held = on.fake.injectMessage({ channel: 'D1', channel_type: 'im', user: 'U1', text: 'held' });
    await waitFor(() => on.fake.socket.sent.length === 1, 5000, 'the envelope delivered');
    // The client's frames arrive in order: had `held` been acked before its hand-over, that ack would be here
    // before the next envelope's.
    const next = on.fake.injectMessage({ channel: 'D2', channel_type: 'im', user: 'U1', text: 'next' });
    await on.fake.socket.waitForAck(next.envelope_id);
    expect(on.fake.socket.isAcked(held.envelope_id)).toBe(false);
    release();
    await on.fake.socket.waitForAck(held.envelope_id);
    expect(taken).toEqual(['next', 'held']);
  });

  it("leaves an event it could not hand over unacknowledged, and takes Slack's redelivery once", async () => {
    let down = true;
    const { host, attempts, taken } = failingHost(() => down);
    const on = await slackSocketOnFake(host, 'refused', 'refused', [10, 10]);
    running = on;
    const first = on.fake.injectMessage({ channel: 'D1', channel_type: 'im', user: 'U1', text: 'kept' });
    await waitFor(() => attempts.length === 3, 5000, 'every hand-over attempt failed');
    down = false;
    const again = on.fake.socket.redeliver(first);
    await on.fake.socket.waitForAck(again.envelope_id);
    expect(taken.map((e) => (e as InboundEvent & { text: string }).text)).toEqual(['kept']);
    expect(on.fake.socket.isAcked(first.envelope_id)).toBe(false);
  });
});

describe('discord: a message whose hand-over failed for good is fetched again later', () => {
  it('catches the channel up once the host is back, the inbox dropping what it already has', async () => {
    const redis = testRedis();
    const prefix = uniquePrefix('hand-over-lost');
    const discord = await startFakeDiscordServer();
    let down = false;
    let failures = 0;
    const seen = new Set<string>();
    const taken: string[] = [];
    // Fails while `down`; dedupes by event id as the inbox does.
    const host: ChannelHost = {
      async receive(e) {
        const event = e as InboundEvent & { text: string };
        if (down) {
          failures++;
          throw new Error('Connection is closed.');
        }
        if (seen.has(event.eventId)) return { accepted: false, reason: 'duplicate' };
        seen.add(event.eventId);
        taken.push(event.text);
        return { accepted: true, conversation: 'c' };
      },
    };
    const adapter = createDiscordAdapter({
      alias: 'lost',
      botToken: discord.token,
      apiBaseUrl: discord.apiUrl,
      logger: createSilentLogger(),
      lastSeen: { redisTarget: { url: REDIS_URL }, prefix },
      handOverRetryDelaysMs: [10],
      catchUpRetryMs: 100,
    });
    try {
      await adapter.start(host);
      discord.injectMessage({ dmUserId: '42', content: 'first' });
      await waitFor(() => taken.length === 1, 5000, 'the first message');
      down = true;
      discord.injectMessage({ dmUserId: '42', content: 'during the outage' });
      // Both attempts (the first and its one retry) failed: the message is lost to the live path.
      await waitFor(() => failures === 2, 5000, 'the hand-over given up');
      expect(await redis.hlen(lastSeenKey(prefix, 'lost'))).toBe(1);
      down = false;
      discord.injectMessage({ dmUserId: '42', content: 'after it' });
      await waitFor(() => taken.length === 3, 5000, 'the lost message fetched again');
      expect(taken).toEqual(['first', 'after it', 'during the outage']);
    } finally {
      await adapter.stop();
      await discord.close();
      await deletePrefix(redis, prefix);
      redis.disconnect();
    }
  });
});
