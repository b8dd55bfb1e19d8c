// A platform that has already delivered an event (the Discord gateway, Slack Socket Mode, which acks first)
// never sends it again: when handing it to the runtime fails (Redis briefly away), the adapter retries it.
import { afterEach, describe, expect, it } from 'vitest';
import type { ChannelHost, InboundEvent, ReceiveResult } from '../../../src/channel-host/types.ts';
import { waitFor } from '../../helpers/wait.ts';
import { discordOnFake, type OnFake, slackSocketOnFake } from './on-fake.ts';

/** Throws on the first `failures` hand-overs, as ChannelHost does when Redis is unreachable. */
function failingHost(failures: number): {
  host: ChannelHost;
  attempts: InboundEvent[];
  taken: InboundEvent[];
} {
  const attempts: InboundEvent[] = [];
  const taken: InboundEvent[] = [];
  const host: ChannelHost = {
    async receive(e): Promise<ReceiveResult> {
      attempts.push(e as InboundEvent);
      if (attempts.length <= failures) throw new Error('Connection is closed.');
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
