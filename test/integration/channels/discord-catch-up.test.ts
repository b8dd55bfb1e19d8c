// Discord messages posted while no gateway holds the bot (a restart, the hand-over between gateways) are fetched
// when the gateway connects again and answered once each, in order: the real discord.js against the fake Discord
// (GET /channels/:id/messages?after=), the real runtime on Redis, the last seen id per channel in Redis.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lastSeenKey } from '../../../channels/discord/last-seen.ts';
import type { ChannelAdapter, ChannelHost } from '../../../src/channel-host/types.ts';
import { createChannelAdapters } from '../../../src/roles/channel-adapters.ts';
import { type FakeDiscordServer, startFakeDiscordServer } from '../../fakes/discord-server.ts';
import type { RecordedRequest } from '../../fakes/model-server.ts';
import {
  createRuntimeHarness,
  echoResponder,
  type RuntimeHarness,
  runtimeToml,
} from '../../helpers/runtime-harness.ts';

const ALICE = '100000000000000001';
let discord: FakeDiscordServer;
let h: RuntimeHarness;
let inner: ChannelAdapter;
let host: ChannelHost | null = null;

const lastUserText = (req: RecordedRequest) =>
  String((req.body.messages ?? []).filter((m) => m.role === 'user').at(-1)?.content ?? '');
const asked = () => h.server.requests.map(lastUserText);
const repliesIn = (channelId: string) =>
  discord.sent.filter((m) => m.channel_id === channelId).map((m) => m.content);
const waitReplies = (channelId: string, n: number) => discord.waitForSent(n, { channelId });

/** The gateway going away and coming back: the same adapter stopped, then started on the gateway's host. */
async function restart(during: () => void = () => {}) {
  await inner.stop();
  during();
  if (!host) throw new Error('the adapter never started');
  await inner.start(host);
}

beforeAll(async () => {
  discord = await startFakeDiscordServer();
  const toml = runtimeToml(`
[channels.discord.test]
enabled = true
bot_token = "${discord.token}"
api_base_url = "${discord.apiUrl}"
mention_only = false

[peer_groups.discord]
channel = "discord.test"
agents = ["main"]
external_peers = ["${ALICE}"]
`);
  h = await createRuntimeHarness('discord-catch-up', toml, {
    // The runtime's own Discord adapter, with the gateway's host kept so the test can restart it.
    adapters: async (config, logger) => {
      const found = (await createChannelAdapters(config, logger)).find((a) => a.key === 'discord.test');
      if (!found) throw new Error('no discord adapter');
      inner = found;
      const wrapped: ChannelAdapter = {
        key: found.key,
        maxMessageLength: found.maxMessageLength,
        async start(hst) {
          host = hst;
          await found.start(hst);
        },
        stop: () => found.stop(),
        send: (to, msg) => found.send(to, msg),
        edit: (ref, msg) => found.edit(ref, msg),
        typing: (to) => found.typing(to),
      };
      return [wrapped];
    },
  });
});
afterAll(async () => {
  await h?.close();
  await discord?.close();
});
beforeEach(() => {
  h.server.reset();
  h.server.respond(echoResponder());
});

describe('discord catch-up after a gap', () => {
  it('answers what was posted while the gateway was away, once each and in order, after it comes back', async () => {
    const dm = discord.injectMessage({ dmUserId: ALICE, content: 'before' });
    discord.injectMessage({ channelId: discord.textChannelId, content: 'room before' });
    await waitReplies(dm.channel_id, 1);
    await waitReplies(discord.textChannelId, 1);

    await restart(() => {
      discord.injectMessage({ dmUserId: ALICE, content: 'gap 1' });
      discord.injectMessage({ channelId: discord.textChannelId, content: 'room gap' });
      discord.injectMessage({ dmUserId: ALICE, content: 'gap 2' });
      discord.injectMessage({ dmUserId: ALICE, content: 'gap 3' });
    });
    // A live message right after the reconnect waits behind the gap it follows.
    discord.injectMessage({ dmUserId: ALICE, content: 'after' });
    await waitReplies(dm.channel_id, 5);
    await waitReplies(discord.textChannelId, 2);
    expect(repliesIn(dm.channel_id)).toEqual([
      'echo: before',
      'echo: gap 1',
      'echo: gap 2',
      'echo: gap 3',
      'echo: after',
    ]);
    expect(repliesIn(discord.textChannelId)).toEqual(['echo: room before', 'echo: room gap']);
    expect(discord.calls.some((c) => c.method === 'GET' && /\/messages$/.test(c.path))).toBe(true);

    // Back again with nothing new: the caught-up messages are not answered twice.
    await restart();
    discord.injectMessage({ dmUserId: ALICE, content: 'last' });
    await waitReplies(dm.channel_id, 6);
    expect(repliesIn(dm.channel_id).slice(4)).toEqual(['echo: after', 'echo: last']);
    expect(asked().filter((t) => t === 'gap 1')).toHaveLength(1);
  });

  it('skips a damaged last seen id in Redis and keeps serving', async () => {
    const key = lastSeenKey(h.prefix, 'test');
    await h.redis.hset(key, '123', 'not-a-snowflake');
    await restart();
    const m = discord.injectMessage({ channelId: discord.threadId, content: 'in the thread' });
    await waitReplies(m.channel_id, 1);
    expect(repliesIn(discord.threadId)).toEqual(['echo: in the thread']);
    expect(await h.redis.hget(key, discord.threadId)).toBe(m.id);
  });
});
