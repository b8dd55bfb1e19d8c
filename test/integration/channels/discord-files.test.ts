// Discord files into a turn (media.md §1), end to end: the real discord.js against the fake Discord and its CDN,
// the real gateway (intake before the inbox) and worker on Redis, the fake (vision) model, which gets the exact
// lines and image parts. A redelivered message, live or fetched by the catch-up after a reconnect, downloads
// nothing again and starts no second turn.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lastSeenKey } from '../../../channels/discord/last-seen.ts';
import { type ChannelAdapter, type ChannelHost, conversationId } from '../../../src/channel-host/types.ts';
import { MIB } from '../../../src/media/attachment.ts';
import { blobKeys, createBlobStore } from '../../../src/media/blob-store.ts';
import {
  attachmentFailedLine,
  attachmentReasons,
  attachmentSavedLine,
  formatSize,
} from '../../../src/media/media-messages.ts';
import { inboxRelativePath, safeName } from '../../../src/media/safe-name.ts';
import { createChannelAdapters } from '../../../src/roles/channel-adapters.ts';
import { type FakeDiscordServer, startFakeDiscordServer } from '../../fakes/discord-server.ts';
import type { WireMessage } from '../../fakes/discord-wire.ts';
import { lastUserPartsOf } from '../../fakes/model-requests.ts';
import type { RecordedRequest } from '../../fakes/model-server.ts';
import { createRuntimeHarness, type RuntimeHarness } from '../../helpers/runtime-harness.ts';
import { mediaToml, PNG, workspaceOf } from '../media/media-fixture.ts';

const ALICE = '100000000000000001';

let discord: FakeDiscordServer;
let h: RuntimeHarness;
let inner: ChannelAdapter;
let host: ChannelHost | null = null;

/** The text of the request's user message (its text parts, when it also carries images). */
const textOf = (req: RecordedRequest) =>
  lastUserPartsOf(req)
    .map((p) => (p.type === 'text' ? p.text : ''))
    .join('');
const asked = () => h.server.requests.map(textOf);
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
const repliesIn = (channelId: string) => discord.sent.filter((m) => m.channel_id === channelId).length;
/** The workspace-relative path of a message's file (a Discord chat is its channel or thread id). */
const pathOf = (m: WireMessage, name: string) =>
  inboxRelativePath(conversationId('discord.test', m.channel_id), m.id, name);
const savedLine = (m: WireMessage, kind: string, name: string, bytes: Buffer) =>
  attachmentSavedLine(kind, safeName(name), formatSize(bytes.length), pathOf(m, name));
const inWorkspace = (rel: string) => readFileSync(join(workspaceOf(h.dataDir), rel));

/** The gateway going away and coming back: the same adapter stopped, then started on the gateway's host. */
async function restart(during: () => void = () => {}) {
  await inner.stop();
  during();
  if (!host) throw new Error('the adapter never started');
  await inner.start(host);
}

beforeAll(async () => {
  discord = await startFakeDiscordServer();
  const toml = mediaToml({
    vision: true,
    extra: `
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
`,
  });
  h = await createRuntimeHarness('discord-files', toml, {
    // The runtime's own Discord adapter, with the gateway's host kept so the test can restart it.
    adapters: async (config, logger) => {
      const found = (await createChannelAdapters(config, logger)).find((a) => a.key === 'discord.test');
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
  // The first line only: a reply never runs into Discord's 2000 characters (one message per turn).
  h.server.respond((req) => ({ text: `seen: ${textOf(req).split('\n')[0]}` }));
});

describe('discord files into a turn', () => {
  it('an image with text: stored before the turn; the vision model gets the caption, its line and the image', async () => {
    const m = discord.injectMessage({
      dmUserId: ALICE,
      content: 'what is this?',
      attachments: [{ filename: 'cat.png', content_type: 'image/png', bytes: PNG }],
    });
    await nthReply(m.channel_id, 1);
    expect(h.server.requests).toHaveLength(1);
    expect(lastUserPartsOf(h.server.requests[0]!)).toEqual([
      { type: 'text', text: `what is this?\n${savedLine(m, 'image', 'cat.png', PNG)}` },
      { type: 'image', mediaType: 'image/png', base64: PNG.toString('base64') },
    ]);
    expect(await stored(m.id)).toEqual(PNG);
    expect(inWorkspace(pathOf(m, 'cat.png'))).toEqual(PNG);
    expect(downloadsOf(m)).toBe(1);
  });

  it('files without text are a turn; a claimed image whose bytes are not one is a file', async () => {
    const notes = Buffer.from('hello notes');
    const fake = Buffer.from('not really a png');
    const m = discord.injectMessage({
      channelId: discord.threadId,
      content: '',
      attachments: [
        { filename: 'notes.txt', content_type: 'text/plain', bytes: notes },
        { filename: 'shot.png', content_type: 'image/png', bytes: fake },
      ],
    });
    await nthReply(discord.threadId, 1);
    expect(h.server.requests).toHaveLength(1);
    expect(lastUserPartsOf(h.server.requests[0]!)).toEqual([
      {
        type: 'text',
        text: [savedLine(m, 'document', 'notes.txt', notes), savedLine(m, 'file', 'shot.png', fake)].join(
          '\n',
        ),
      },
    ]);
    expect(inWorkspace(pathOf(m, 'notes.txt'))).toEqual(notes);
  });

  it('a message dispatched again downloads nothing and starts no second turn', async () => {
    const m = discord.injectMessage({
      channelId: discord.textChannelId,
      content: 'once',
      attachments: [{ filename: 'cat.png', content_type: 'image/png', bytes: PNG }],
    });
    const before = repliesIn(discord.textChannelId);
    await nthReply(discord.textChannelId, before + 1);
    discord.redispatch(m.id);
    // The channel's messages are handed over in order: the sentinel's answer comes after the redelivery's.
    discord.injectMessage({ channelId: discord.textChannelId, content: 'sentinel' });
    expect(await nthReply(discord.textChannelId, before + 2)).toBe('seen: sentinel');
    expect(downloadsOf(m)).toBe(1);
    expect(asked()).toEqual([`once\n${savedLine(m, 'image', 'cat.png', PNG)}`, 'sentinel']);
  });

  it('after a reconnect, the catch-up downloads a file posted meanwhile once and skips one already stored', async () => {
    const channelId = discord.textChannelId;
    const mark = discord.injectMessage({ channelId, content: 'mark' });
    const first = repliesIn(channelId) + 1;
    await nthReply(channelId, first);
    const live = discord.injectMessage({
      channelId,
      content: 'live one',
      attachments: [{ filename: 'a.png', content_type: 'image/png', bytes: PNG }],
    });
    await nthReply(channelId, first + 1);
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
    expect(await nthReply(channelId, first + 3)).toBe('seen: after');
    expect([downloadsOf(live), downloadsOf(gap)]).toEqual([1, 1]);
    expect(asked()).toEqual([
      'mark',
      `live one\n${savedLine(live, 'image', 'a.png', PNG)}`,
      `in the gap\n${savedLine(gap, 'image', 'b.png', PNG)}`,
      'after',
    ]);
  });

  it('over max_attachment_mb (claimed), a 404 and a non-CDN link: each its line, nothing stored, the turn runs', async () => {
    const m = discord.injectMessage({
      dmUserId: ALICE,
      content: 'three files',
      attachments: [
        { filename: 'huge.bin', content_type: 'application/octet-stream', bytes: PNG, size: 2 * MIB },
        { filename: 'gone.pdf', content_type: 'application/pdf', status: 404, size: 2048 },
        { filename: 'far.png', content_type: 'image/png', url: 'https://example.com/far.png', size: 10 },
      ],
    });
    expect(await nthReply(m.channel_id, repliesIn(m.channel_id) + 1)).toBe('seen: three files');
    expect(asked()).toEqual([
      [
        'three files',
        attachmentFailedLine('file', 'huge.bin', '2.0 MB', attachmentReasons.tooLarge(MIB)),
        attachmentFailedLine('document', 'gone.pdf', '2.0 KB', attachmentReasons.notFound),
        attachmentFailedLine('image', 'far.png', '10 B', attachmentReasons.notOnPlatform),
      ].join('\n'),
    ]);
    expect([downloadsOf(m, 0), downloadsOf(m, 1)]).toEqual([0, 1]);
    expect([await stored(m.id, 0), await stored(m.id, 1), await stored(m.id, 2)]).toEqual([null, null, null]);
  });

  it('an odd name is saved under a safe one inside the inbox', async () => {
    // Long, but short enough for the name to fit in its CDN URL (the contract keeps URLs up to 8192 characters).
    const odd = `../../etc/passwd\u0000\u0007${'n'.repeat(2000)}.png`;
    const m = discord.injectMessage({
      dmUserId: ALICE,
      content: 'odd',
      attachments: [{ filename: odd, content_type: 'image/png', bytes: PNG }],
    });
    expect(await nthReply(m.channel_id, repliesIn(m.channel_id) + 1)).toBe('seen: odd');
    const rel = pathOf(m, odd);
    expect(rel).toMatch(/^inbox\/[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+$/);
    expect(asked()).toEqual([`odd\n${savedLine(m, 'image', odd, PNG)}`]);
    expect(inWorkspace(rel)).toEqual(PNG);
  });
});
