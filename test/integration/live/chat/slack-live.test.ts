// live.md §2, §3 on Slack: the real Bolt adapter (Socket Mode) against the fake Web API and socket.
import { type FakeSlackServer, startFakeSlack } from '../../../fakes/slack-server.ts';
import { liveChatSuite } from './live-suite.ts';

let fake: FakeSlackServer;
let nextChannel = 0;

/** Slack shows `&`, `<` and `>` escaped; the suite's texts compare unescaped. */
const shown = (text: string) => text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');

liveChatSuite({
  name: 'slack',
  key: 'slack.test',
  async start() {
    fake = await startFakeSlack();
  },
  channelToml: (keys) => `
[channels.slack.test]
enabled = true
bot_token = "xoxb-test"
app_token = "xapp-test"
api_base_url = "${fake.apiUrl}"
${keys}

[peer_groups.slack]
channel = "slack.test"
agents = ["main"]
external_peers = ["*"]
`,
  async close() {
    await fake.socket.waitForNoSockets();
    await fake.close();
  },
  async say(text) {
    const channel = `D${String(++nextChannel).padStart(4, '0')}`;
    fake.injectMessage({ channel, text, channel_type: 'im' });
    return channel;
  },
  messages: (chat) =>
    [...fake.messages, ...fake.deleted]
      .filter((m) => m.channel === chat)
      .sort((a, b) => Number(a.ts) - Number(b.ts))
      .map((m) => ({
        id: m.ts,
        versions: m.versions.map((v) => shown(v.text)),
        deleted: fake.deleted.includes(m),
      })),
  writeTimes: (chat) =>
    fake.calls
      .filter(
        (c) => (c.method === 'chat.postMessage' || c.method === 'chat.update') && c.params.channel === chat,
      )
      .filter((c) => c.status === 200)
      .map((c) => c.at),
  userDeletes(chat, id) {
    const at = fake.messages.findIndex((m) => m.channel === chat && m.ts === id);
    if (at >= 0) fake.deleted.push(...fake.messages.splice(at, 1));
  },
});
