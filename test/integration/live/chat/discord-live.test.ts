// live.md §2, §3 on Discord: the real discord.js adapter against the fake Discord gateway and REST API.
import type { DiscordCall } from '../../../fakes/discord-rest.ts';
import { type FakeDiscordServer, startFakeDiscordServer } from '../../../fakes/discord-server.ts';
import { type BotMessage, liveChatSuite } from './live-suite.ts';

const ALICE = '100000000000000001';
let discord: FakeDiscordServer;
let nextDm = 0;

const MESSAGES = /^\/channels\/(\d+)\/messages(?:\/(\d+))?$/;
/** The bot's successful writes in a channel, oldest first. */
const writesIn = (chat: string): DiscordCall[] =>
  discord.calls.filter((c) => c.status < 300 && MESSAGES.exec(c.path)?.[1] === chat && c.method !== 'GET');

liveChatSuite({
  name: 'discord',
  key: 'discord.test',
  async start() {
    discord = await startFakeDiscordServer();
  },
  channelToml: (keys) => `
[channels.discord.test]
enabled = true
bot_token = "${discord.token}"
api_base_url = "${discord.apiUrl}"
${keys}

[peer_groups.discord]
channel = "discord"
agents = ["main"]
external_peers = ["*"]
`,
  close: () => discord.close(),
  async say(text) {
    // A DM of its own per test: each DM channel is a fresh chat.
    const user = String(BigInt(ALICE) + BigInt(++nextDm));
    const message = discord.injectMessage({
      dmUserId: user,
      authorId: user,
      username: `u${nextDm}`,
      content: text,
    });
    return message.channel_id;
  },
  messages(chat) {
    const byId = new Map<string, BotMessage>();
    for (const c of writesIn(chat)) {
      const content = String((c.body as { content?: unknown } | undefined)?.content ?? '');
      if (c.method === 'POST') {
        const id = String((c.response as { id?: unknown } | undefined)?.id);
        byId.set(id, { id, versions: [content], deleted: false });
      } else {
        const found = byId.get(MESSAGES.exec(c.path)?.[2] ?? '');
        if (found && c.method === 'PATCH') found.versions.push(content);
        if (found && c.method === 'DELETE') found.deleted = true;
      }
    }
    for (const m of byId.values()) if (!discord.messages.has(m.id)) m.deleted = true;
    return [...byId.values()];
  },
  writeTimes: (chat) =>
    writesIn(chat)
      .filter((c) => c.method !== 'DELETE')
      .map((c) => c.at),
  userDeletes(_chat, id) {
    discord.messages.delete(id);
  },
});
