// Discord files into a turn (media.md §1), end to end: the real discord.js against the fake Discord and its CDN,
// the real gateway (intake before the inbox) and worker on Redis, the fake model. A redelivered message, live or
// fetched by the catch-up after a reconnect, downloads nothing again and starts no second turn.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lastSeenKey } from '../../../channels/discord/last-seen.ts';
import type { ChannelAdapter, ChannelHost } from '../../../src/channel-host/types.ts';
import { blobKeys, createBlobStore } from '../../../src/media/blob-store.ts';
import { createChannelAdapters } from '../../../src/roles/channel-adapters.ts';
import { type FakeDiscordServer, startFakeDiscordServer } from '../../fakes/discord-server.ts';
import type { WireMessage } from '../../fakes/discord-wire.ts';
import type { RecordedRequest } from '../../fakes/model-server.ts';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../../helpers/runtime-harness.ts';

const ALICE = '100000000000000001';
const PNG = Buffer.from('89504e470d0a1a0a0000000d494844520000000100000001', 'hex');
const MIB = 1024 * 1024;

let discord: FakeDiscordServer;
let h: RuntimeHarness;
let inner: ChannelAdapter;
let host: ChannelHost | null = null;

type Part = { type?: string; text?: string };
/** The last user message's text (its text parts joined, when it has image parts). */
const lastUserText = (req: RecordedRequest) => {
  const content = (req.body.messages ?? []).filter((m) => m.role === 'user').at(-1)?.content;
  return typeof content === 'string'
    ? content
    : ((content ?? []) as Part[]).map((p) => (p.type === 'text' ? (p.text ?? '') : '')).join('');
};
const asked = () => h.server.requests.map(lastUserText);
/** The stored bytes of the message's attachment `i` (null: nothing stored). */
const stored = (messageId: string, i = 0) =>
  createBlobStore(h.redis).get(blobKeys(h.prefix).inbound('discord.test', messageId, i));
const cdnPath = (message: WireMessage, i = 0) =>
  new URL((message.attachments as Array<{ url: string }>)[i]?.url ?? '').pathname;
const downloadsOf = (message: WireMessage, i = 0) =>
  discord.cdn.fetches.filter((f) => f.path === cdnPath(message, i)).length;
/** Waits for the bot's `n`-th message in the channel and returns its text. */
const nthReply = async (channelId: string, n: number) =>
  (await discord.waitForSent(n, { channelId })).filter((m) => m.channel_id === channelId)[n - 1]?.content;

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
max_attachment_mb = 1

[peer_groups.discord]
channel = "discord.test"
agents = ["main"]
external_peers = ["${ALICE}"]
`);
  h = await createRuntimeHarness('discord-files', toml, {
    // The runtime's own Discord adapter, with the gateway's host kept so the test can restart it.
    adapters: (config, logger) => {
      const found = createChannelAdapters(config, logger).find((a) => a.key === 'discord.test');
      if (!found) throw new Error('no discord adapter');
      inner = found;
      return [
        {
          ...found,
          async start(hst) {
            host = hst;
            await found.start(hst);
          },
        },
      ];
    },
  });
});
afterAll(async () => {
  await h?.close();
  await discord?.close();
});
beforeEach(() => {
  h.server.reset();
  h.server.respond((req) => ({ text: `seen: ${lastUserText(req)}` }));
});

describe('discord files into a turn', () => {
  it('stores an image sent with text before the turn, and the turn runs with the caption', async () => {
    const m = discord.injectMessage({
      dmUserId: ALICE,
      content: 'what is this?',
      attachments: [{ filename: 'cat.png', content_type: 'image/png', bytes: PNG }],
    });
    await nthReply(m.channel_id, 1);
    expect(await stored(m.id)).toEqual(PNG);
    expect(downloadsOf(m)).toBe(1);
    expect(asked()[0]).toContain('what is this?');
  });

  it('starts a turn for a file sent without text', async () => {
    const m = discord.injectMessage({
      channelId: discord.threadId,
      content: '',
      attachments: [{ filename: 'notes.txt', content_type: 'text/plain', bytes: Buffer.from('hello notes') }],
    });
    await nthReply(discord.threadId, 1);
    expect(h.server.requests).toHaveLength(1);
    expect(await stored(m.id)).toEqual(Buffer.from('hello notes'));
  });

  it('a message dispatched again downloads nothing and starts no second turn', async () => {
    const m = discord.injectMessage({
      channelId: discord.textChannelId,
      content: 'once',
      attachments: [{ filename: 'cat.png', content_type: 'image/png', bytes: PNG }],
    });
    const before = discord.sent.filter((s) => s.channel_id === discord.textChannelId).length;
    await nthReply(discord.textChannelId, before + 1);
    discord.redispatch(m.id);
    // The channel's messages are handed over in order: the sentinel's answer comes after the redelivery's.
    discord.injectMessage({ channelId: discord.textChannelId, content: 'sentinel' });
    expect(await nthReply(discord.textChannelId, before + 2)).toBe('seen: sentinel');
    expect(downloadsOf(m)).toBe(1);
    expect(h.server.requests).toHaveLength(2);
  });

  it('after a reconnect, the catch-up downloads a file posted meanwhile once and skips one already stored', async () => {
    const channelId = discord.textChannelId;
    const mark = discord.injectMessage({ channelId, content: 'mark' });
    const seenFirst = discord.sent.filter((s) => s.channel_id === channelId).length + 1;
    await nthReply(channelId, seenFirst);
    const live = discord.injectMessage({
      channelId,
      content: 'live one',
      attachments: [{ filename: 'a.png', content_type: 'image/png', bytes: PNG }],
    });
    await nthReply(channelId, seenFirst + 1);
    // As if the last seen id never moved past the mark: the catch-up fetches `live` again too.
    await h.redis.hset(lastSeenKey(h.prefix, 'test'), channelId, mark.id);
    let gap = live;
    await restart(() => {
      gap = discord.injectMessage({
        channelId,
        content: 'in the gap',
        attachments: [{ filename: 'b.png', content_type: 'image/png', bytes: PNG }],
      });
    });
    discord.injectMessage({ channelId, content: 'after' });
    expect(await nthReply(channelId, seenFirst + 3)).toBe('seen: after');
    expect([downloadsOf(live), downloadsOf(gap)]).toEqual([1, 1]);
    expect(asked().filter((t) => t.includes('live one') || t.includes('in the gap'))).toEqual([
      expect.stringContaining('live one'),
      expect.stringContaining('in the gap'),
    ]);
    expect(await stored(gap.id)).toEqual(PNG);
  });

  it('fetches nothing for a file claimed over max_attachment_mb; a 404 or a non-CDN link stores nothing; the turns run', async () => {
    const m = discord.injectMessage({
      dmUserId: ALICE,
      content: 'three files',
      attachments: [
        { filename: 'huge.bin', content_type: 'application/octet-stream', bytes: PNG, size: 2 * MIB },
        { filename: 'gone.png', content_type: 'image/png', status: 404 },
        { filename: 'far.png', content_type: 'image/png', url: 'https://example.com/far.png' },
      ],
    });
    const n = discord.sent.filter((s) => s.channel_id === m.channel_id).length + 1;
    expect(await nthReply(m.channel_id, n)).toContain('three files');
    expect([downloadsOf(m, 0), downloadsOf(m, 1)]).toEqual([0, 1]);
    expect([await stored(m.id, 0), await stored(m.id, 1), await stored(m.id, 2)]).toEqual([null, null, null]);
  });

  it('stores a file with an odd name under its key only', async () => {
    // Long, but short enough for the name to fit in its CDN URL (the contract keeps URLs up to 8192 characters).
    const odd = `../../etc/passwd\u0000\u0007${'n'.repeat(2000)}.png`;
    const m = discord.injectMessage({
      dmUserId: ALICE,
      content: 'odd',
      attachments: [{ filename: odd, content_type: 'image/png', bytes: PNG }],
    });
    const n = discord.sent.filter((s) => s.channel_id === m.channel_id).length + 1;
    expect(await nthReply(m.channel_id, n)).toContain('odd');
    expect(await stored(m.id)).toEqual(PNG);
  });
});
