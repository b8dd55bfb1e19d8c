// The channel contract on the Discord adapter (real discord.js, gateway + REST) against the fake Discord.
// A Discord thread is a channel: the adapter reports it as the chat, with no `thread` (channels/discord/inbound.ts).
import type { FakeDiscordServer } from '../../../fakes/discord-server.ts';
import { discordOnFake, startStop } from '../on-fake.ts';
import type { PlatformDriver } from './driver.ts';
import { channelContract } from './suite.ts';

const ALICE = '100000000000000001';
const BOB = '100000000000000002';

let discord: FakeDiscordServer;

const driver: PlatformDriver = {
  name: 'discord',
  ...startStop(
    (host) => discordOnFake(host, 'contract'),
    (f) => {
      discord = f;
    },
  ),
  async injectText(where, text) {
    if (where === 'chat') {
      const m = discord.injectMessage({ dmUserId: ALICE, authorId: ALICE, username: 'alice', content: text });
      return { expect: { chat: m.channel_id, isDirect: true, sender: { id: ALICE } }, place: m.channel_id };
    }
    discord.injectMessage({ channelId: discord.threadId, authorId: ALICE, username: 'alice', content: text });
    return {
      expect: { chat: discord.threadId, isDirect: false, sender: { id: ALICE } },
      place: discord.threadId,
    };
  },
  sent: () =>
    discord.sent.map((m) => ({
      id: m.id,
      place: m.channel_id,
      text: m.content,
      buttons: m.components.map((row) => row.components.map((b) => ({ id: b.custom_id, label: b.label }))),
    })),
  async press(messageId, actionId) {
    discord.pressButton({ messageId, customId: actionId, userId: BOB, username: 'bob' });
    return { sender: { id: BOB } };
  },
  rateLimitNextSend(retryAfterSec) {
    discord.failNext({
      status: 429,
      retryAfterSec,
      match: (m, p) => m === 'POST' && p.endsWith('/messages'),
    });
  },
  sendAttempts: (text) =>
    discord.calls.filter(
      (c) =>
        c.method === 'POST' &&
        c.path.endsWith('/messages') &&
        (c.body as { content?: string })?.content === text,
    ).length,
  async dropConnection() {
    // Cut without a close frame: discord.js sees 1006 and resumes the session.
    discord.gateway.drop();
  },
};

channelContract(driver);
