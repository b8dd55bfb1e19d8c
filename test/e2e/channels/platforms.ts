// One driver per platform over its fake, so the lane's cases are written once: where to talk (a chat, or a
// forum topic / Discord thread / Slack thread), who talks, and what the bot posted there.
import { DISCORD_MAX_MESSAGE_LENGTH } from '../../../channels/discord/discord-adapter.ts';
import { SLACK_MAX_MESSAGE_LENGTH } from '../../../channels/slack/outbound.ts';
import { TELEGRAM_MAX_MESSAGE_LENGTH } from '../../../channels/telegram/telegram-adapter.ts';
import { startFakeDiscordServer } from '../../fakes/discord-server.ts';
import { snowflake } from '../../fakes/discord-wire.ts';
import { nextTs } from '../../fakes/slack-payloads.ts';
import { startFakeSlack } from '../../fakes/slack-server.ts';
import { type FakeTelegram, startFakeTelegram } from '../../fakes/telegram-server.ts';
import { user } from '../../fakes/telegram-wire.ts';
import { ALICE, MALLORY } from './lane.ts';

export type PlaceKind = 'chat' | 'thread';
export type Sender = 'alice' | 'mallory';

/** A message the bot posted: what the chat shows, what was sent (Markdown, mrkdwn or HTML), and where. */
export interface Post {
  text: string;
  source: string;
  /** In the place's thread (or, for a plain chat, in no thread). */
  inThread: boolean;
}

export interface PlatformDriver {
  readonly name: 'telegram' | 'discord' | 'slack';
  /** The adapter's maxMessageLength. */
  readonly limit: number;
  /** [channels.…] and [peer_groups.…] for this platform's fake (ALICE authorised). */
  readonly toml: string;
  /** Resolves once baton is connected (a message injected now is received). */
  ready(): Promise<void>;
  /** A place of its own (Discord: one of the channels created before baton connected). */
  place(kind: PlaceKind): string;
  say(place: string, text: string, from?: Sender): void;
  posts(place: string): Post[];
  close(): Promise<void>;
}

export interface TelegramDriver extends PlatformDriver {
  fake: FakeTelegram;
  /** The Telegram chat id of a place. */
  chatId(place: string): number;
}

export async function telegramDriver(): Promise<TelegramDriver> {
  const fake = await startFakeTelegram({ token: 'T1' });
  const places = new Map<string, { chat: number; thread?: number }>();
  return {
    name: 'telegram',
    fake,
    chatId: (place) => (places.get(place) as { chat: number }).chat,
    limit: TELEGRAM_MAX_MESSAGE_LENGTH,
    toml: telegramToml(fake.url),
    ready: async () => {
      await fake.waitForCall((c) => c.method === 'getUpdates', 20_000, 'polling');
    },
    place(kind) {
      const n = places.size + 1;
      const key = `tg-${n}`;
      places.set(key, kind === 'thread' ? { chat: -1_000_000 - n, thread: 3 } : { chat: 5000 + n });
      return key;
    },
    say(place, text, from = 'alice') {
      const p = places.get(place) as { chat: number; thread?: number };
      const chat = p.thread ? { id: p.chat, type: 'supergroup' as const, is_forum: true } : p.chat;
      const id = from === 'alice' ? ALICE.telegram : MALLORY.telegram;
      fake.injectMessage({ chat, from: user(id, from), text, ...(p.thread ? { thread: p.thread } : {}) });
    },
    posts(place) {
      const p = places.get(place) as { chat: number; thread?: number };
      return fake.sentTo(p.chat).map((s) => ({
        text: s.versions[0]?.text ?? '',
        source: s.versions[0]?.html ?? s.versions[0]?.text ?? '',
        inThread: s.message.message_thread_id === p.thread,
      }));
    },
    close: () => fake.close(),
  };
}

export function telegramToml(url: string): string {
  return `
[channels.telegram.home]
enabled = true
bot_token = "T1"
api_base_url = "${url}/"

[peer_groups.tg]
channel = "telegram"
agents = ["main"]
external_peers = ["${ALICE.telegram}"]
`;
}

/** `pool` text channels and as many threads exist before baton connects (discord.js knows them from GUILD_CREATE). */
export async function discordDriver(pool = 6): Promise<PlatformDriver> {
  const fake = await startFakeDiscordServer();
  const free: Record<PlaceKind, string[]> = { chat: [], thread: [] };
  for (let i = 0; i < pool; i++) {
    const chat = snowflake();
    fake.channels.set(chat, { id: chat, type: 0, guild_id: fake.guildId, name: `c${i}` });
    const thread = snowflake();
    fake.channels.set(thread, {
      id: thread,
      type: 11,
      guild_id: fake.guildId,
      name: `t${i}`,
      parent_id: chat,
    });
    free.chat.push(chat);
    free.thread.push(thread);
  }
  return {
    name: 'discord',
    limit: DISCORD_MAX_MESSAGE_LENGTH,
    toml: `
[channels.discord.test]
enabled = true
bot_token = "${fake.token}"
api_base_url = "${fake.apiUrl}"

[peer_groups.discord]
channel = "discord"
agents = ["main"]
external_peers = ["${ALICE.discord}"]
`,
    ready: () => fake.waitForSessions('identify', 1),
    place(kind) {
      const id = free[kind].shift();
      if (!id) throw new Error(`discord driver: no ${kind} left in the pool`);
      return id;
    },
    say(place, text, from = 'alice') {
      const authorId = from === 'alice' ? ALICE.discord : MALLORY.discord;
      fake.injectMessage({ channelId: place, content: text, authorId, username: from });
    },
    // A thread is a channel of its own on Discord: a post with this channel id is in that thread.
    posts: (place) =>
      fake.sent
        .filter((m) => m.channel_id === place)
        .map((m) => ({ text: m.content, source: m.content, inThread: true })),
    close: () => fake.close(),
  };
}

/** Chats are DMs (no thread); threads are replies under a channel message (`thread_ts`). */
export async function slackDriver(): Promise<PlatformDriver> {
  const fake = await startFakeSlack();
  const places = new Map<string, { channel: string; thread?: string }>();
  return {
    name: 'slack',
    limit: SLACK_MAX_MESSAGE_LENGTH,
    toml: `
[channels.slack.test]
enabled = true
bot_token = "xoxb-test"
app_token = "xapp-test"
api_base_url = "${fake.apiUrl}"

[peer_groups.slack]
channel = "slack"
agents = ["main"]
external_peers = ["${ALICE.slack}"]
`,
    ready: async () => {
      await fake.socket.waitForConnections(1, 20_000);
    },
    place(kind) {
      const n = String(places.size + 1).padStart(4, '0');
      const key = kind === 'thread' ? `C${n}` : `D${n}`;
      places.set(key, kind === 'thread' ? { channel: key, thread: nextTs() } : { channel: key });
      return key;
    },
    say(place, text, from = 'alice') {
      const p = places.get(place) as { channel: string; thread?: string };
      fake.injectMessage({
        channel: p.channel,
        user: from === 'alice' ? ALICE.slack : MALLORY.slack,
        text,
        ...(p.thread ? { thread_ts: p.thread } : { channel_type: 'im' }),
      });
    },
    posts(place) {
      const p = places.get(place) as { channel: string; thread?: string };
      return fake.messages
        .filter((m) => m.channel === p.channel)
        .map((m) => ({ text: m.text, source: m.text, inThread: m.thread_ts === p.thread }));
    },
    close: async () => {
      await fake.socket.waitForNoSockets().catch(() => {});
      await fake.close();
    },
  };
}
