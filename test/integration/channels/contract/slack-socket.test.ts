// The channel contract on the Slack adapter in Socket Mode (real Bolt) against the fake Slack.
// Threads: the user's thread_ts is the conversation's thread; DMs stay one conversation without a thread.
import { nextTs } from '../../../fakes/slack-payloads.ts';
import type { FakeSlackServer } from '../../../fakes/slack-server.ts';
import { slackSocketOnFake, startStop } from '../on-fake.ts';
import type { PlatformDriver, WireButton } from './driver.ts';
import { channelContract } from './suite.ts';

const DM = 'D0CONTRACT';
const CHANNEL = 'C0CONTRACT';

let fake: FakeSlackServer;

const placeOf = (channel: string, thread?: string) => `${channel}/${thread ?? ''}`;
/** The buttons of a message's Block Kit actions blocks. */
function buttonsOf(blocks: unknown[]): WireButton[][] {
  type Element = { action_id?: string; text?: { text?: string } };
  return (blocks as Array<{ type?: string; elements?: Element[] }>)
    .filter((b) => b.type === 'actions')
    .map((b) => (b.elements ?? []).map((e) => ({ id: e.action_id ?? '', label: e.text?.text ?? '' })));
}

const driver: PlatformDriver = {
  name: 'slack socket mode',
  ...startStop(
    (host) => slackSocketOnFake(host, 'contract', 'contract'),
    (f) => {
      fake = f;
    },
  ),
  async injectText(where, text) {
    if (where === 'chat') {
      fake.injectMessage({ channel: DM, channel_type: 'im', text });
      return { expect: { chat: DM, isDirect: true, sender: { id: 'U0ALICE' } }, place: placeOf(DM) };
    }
    const thread = nextTs();
    fake.injectMessage({ channel: CHANNEL, text, thread_ts: thread });
    return {
      expect: { chat: CHANNEL, thread, isDirect: false, sender: { id: 'U0ALICE' } },
      place: placeOf(CHANNEL, thread),
    };
  },
  sent: () =>
    fake.messages.map((m) => ({
      id: m.ts,
      place: placeOf(m.channel, m.thread_ts),
      text: m.text,
      buttons: buttonsOf(m.blocks),
    })),
  async press(messageTs, actionId) {
    fake.press({ messageTs, actionId, user: 'U0BOB', username: 'bob' });
    return { sender: { id: 'U0BOB' } };
  },
  rateLimitNextSend(retryAfterSecs) {
    fake.failNext({ status: 429, retryAfterSecs }, 'chat.postMessage');
  },
  sendAttempts: (text) =>
    fake.calls.filter((c) => c.method === 'chat.postMessage' && c.params.text === text).length,
  async dropConnection() {
    if (fake.socket.drop() === 0) throw new Error('fake slack: no socket to drop');
  },
};

channelContract(driver);
