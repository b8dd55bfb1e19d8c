// Files on the Discord adapter (media.md §1, §2), the real discord.js against the fake Discord: what a message's
// attachments become, downloads from the fake CDN (and what is refused), and files sent as message attachments.
import { EventEmitter, once } from 'node:events';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DISCORD_MAX_UPLOAD_BYTES } from '../../../channels/discord/files.ts';
import {
  type ChannelHost,
  ChannelRateLimitError,
  type InboundEvent,
  type InboundMessage,
} from '../../../src/channel-host/types.ts';
import { type Attachment, AttachmentFetchError } from '../../../src/media/attachment.ts';
import { attachmentReasons } from '../../../src/media/media-messages.ts';
import type { FakeDiscordServer } from '../../fakes/discord-server.ts';
import { discordOnFake, type OnFake } from './on-fake.ts';

const ALICE = '100000000000000001';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const PDF = Buffer.from('%PDF-1.4\n%fake\n');
const MB = 1024 * 1024;

let on: OnFake<FakeDiscordServer>;
let discord: FakeDiscordServer;
const events: InboundEvent[] = [];
const arrived = new EventEmitter();
/** Accepts everything into one conversation and keeps the events. */
const host: ChannelHost = {
  async receive(e) {
    events.push(e as InboundEvent);
    arrived.emit('event');
    return { accepted: true, conversation: 'c' };
  },
};

const adapter = () => on.adapter;
const download = (source: string, maxBytes = 20 * MB, signal = AbortSignal.timeout(10_000)) => {
  const fn = adapter().download;
  if (!fn) throw new Error('the discord adapter has no download');
  return fn(source, maxBytes, signal);
};
const fetchError = async (p: Promise<unknown>): Promise<string> => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof AttachmentFetchError)) throw new Error(`expected an AttachmentFetchError, got ${err}`);
  return err.reason;
};
/** The event the adapter handed over for this message id. */
async function eventOf(id: string): Promise<InboundMessage> {
  for (;;) {
    const found = events.find((e): e is InboundMessage => e.kind === 'message' && e.eventId === id);
    if (found) return found;
    await once(arrived, 'event');
  }
}

beforeAll(async () => {
  on = await discordOnFake(host, 'files');
  discord = on.fake;
});
afterAll(async () => {
  await on?.stop();
});
beforeEach(() => {
  events.length = 0;
});

describe('discord attachments in', () => {
  it('maps each attachment to its kind, name, size, type and CDN URL; a file alone is a turn', async () => {
    const m = discord.injectMessage({
      dmUserId: ALICE,
      content: '',
      attachments: [
        { filename: 'cat.png', content_type: 'image/png', bytes: PNG },
        { filename: 'report.pdf', content_type: 'application/pdf', bytes: PDF },
        { filename: 'notes.txt', content_type: 'text/plain; charset=utf-8', size: 12 },
        { filename: 'song.mp3', content_type: 'audio/mpeg', size: 3000 },
        { filename: 'clip.mp4', content_type: 'video/mp4', size: 5000 },
        { filename: 'blob.bin', content_type: 'application/octet-stream', size: 7 },
        { filename: 'untyped', size: 8 },
      ],
    });
    const event = await eventOf(m.id);
    expect(event.text).toBe('');
    const urls = (m.attachments as Array<{ url: string }>).map((a) => a.url);
    expect(event.attachments).toEqual([
      { kind: 'image', name: 'cat.png', size: PNG.byteLength, mime: 'image/png', source: urls[0] },
      {
        kind: 'document',
        name: 'report.pdf',
        size: PDF.byteLength,
        mime: 'application/pdf',
        source: urls[1],
      },
      { kind: 'document', name: 'notes.txt', size: 12, mime: 'text/plain; charset=utf-8', source: urls[2] },
      { kind: 'audio', name: 'song.mp3', size: 3000, mime: 'audio/mpeg', source: urls[3] },
      { kind: 'video', name: 'clip.mp4', size: 5000, mime: 'video/mp4', source: urls[4] },
      { kind: 'file', name: 'blob.bin', size: 7, mime: 'application/octet-stream', source: urls[5] },
      { kind: 'file', name: 'untyped', size: 8, source: urls[6] },
    ] satisfies Attachment[]);
    // Mapping downloads nothing: the host decides (limits, redelivery) before any byte moves.
    expect(discord.cdn.fetches).toEqual([]);
  });

  it('reads a voice message as voice, keeps the caption, and passes an odd name on raw (the host makes it safe)', async () => {
    const odd = `../../etc/passwd\u0007${'x'.repeat(10_500)}`;
    const voice = discord.injectMessage({
      dmUserId: ALICE,
      content: 'listen',
      attachments: [{ filename: 'voice-message.ogg', content_type: 'audio/ogg', size: 900, voice: true }],
    });
    const oddOne = discord.injectMessage({
      dmUserId: ALICE,
      content: '',
      attachments: [{ filename: odd, content_type: 'image/png', size: 10 }],
    });
    const v = await eventOf(voice.id);
    expect(v.text).toBe('listen');
    expect(v.attachments?.map((a) => [a.kind, a.name])).toEqual([['voice', 'voice-message.ogg']]);
    const o = await eventOf(oddOne.id);
    // Cut to what the contract holds (10,000 characters), never dropped: the turn still runs.
    expect(o.attachments?.[0]?.name).toBe(odd.slice(0, 10_000));
  });

  it('still skips a sticker alone and a bare mention of the bot', async () => {
    discord.injectMessage({ dmUserId: ALICE, content: '', stickers: [{ id: '9', name: 'wave' }] });
    discord.injectMessage({ dmUserId: ALICE, content: `<@${discord.bot.id}>` });
    const sentinel = discord.injectMessage({ dmUserId: ALICE, content: 'sentinel' });
    await eventOf(sentinel.id);
    expect(events.map((e) => (e.kind === 'message' ? e.text : e.kind))).toEqual(['sentinel']);
  });
});

describe('discord download', () => {
  it('fetches the bytes from the CDN URL, without the bot token', async () => {
    const m = discord.injectMessage({
      dmUserId: ALICE,
      content: 'x',
      attachments: [{ filename: 'cat.png', content_type: 'image/png', bytes: PNG }],
    });
    const { source } = (await eventOf(m.id)).attachments?.[0] ?? {};
    if (!source) throw new Error('no source');
    expect(Buffer.from(await download(source))).toEqual(PNG);
    const path = new URL(source).pathname;
    expect(discord.cdn.fetches.filter((f) => f.path === path)).toEqual([{ path }]);
  });

  it('gives the reasons of media.md for a file the CDN no longer has, refuses, or sends past the limit', async () => {
    const m = discord.injectMessage({
      dmUserId: ALICE,
      content: 'x',
      attachments: [
        { filename: 'gone.png', content_type: 'image/png', status: 404 },
        { filename: 'denied.png', content_type: 'image/png', status: 403 },
        {
          filename: 'big.bin',
          content_type: 'application/octet-stream',
          bytes: Buffer.alloc(4096, 1),
          size: 10,
        },
      ],
    });
    const [gone, denied, big] = ((await eventOf(m.id)).attachments ?? []).map((a) => a.source ?? '');
    expect(await fetchError(download(gone ?? ''))).toBe(attachmentReasons.notFound);
    expect(await fetchError(download(denied ?? ''))).toBe(attachmentReasons.refused(403));
    // The claimed size lied: the body stops at the limit.
    expect(await fetchError(download(big ?? '', 1024))).toBe(attachmentReasons.tooLarge(1024));
  });

  it('does not follow a redirect, even to a file on the CDN', async () => {
    const target = discord.injectMessage({
      dmUserId: ALICE,
      content: 'x',
      attachments: [{ filename: 'target.png', content_type: 'image/png', bytes: PNG }],
    });
    const targetUrl = (await eventOf(target.id)).attachments?.[0]?.source ?? '';
    const m = discord.injectMessage({
      dmUserId: ALICE,
      content: 'x',
      attachments: [{ filename: 'moved.png', content_type: 'image/png', redirect: targetUrl }],
    });
    const source = (await eventOf(m.id)).attachments?.[0]?.source ?? '';
    expect(await fetchError(download(source))).toBe(attachmentReasons.refused(302));
    expect([discord.cdn.downloads(source), discord.cdn.downloads(targetUrl)]).toEqual([1, 0]);
  });

  it('gives up on a CDN that never answers when the signal ends', async () => {
    const m = discord.injectMessage({
      dmUserId: ALICE,
      content: 'x',
      attachments: [{ filename: 'slow.png', content_type: 'image/png', hang: true }],
    });
    const source = (await eventOf(m.id)).attachments?.[0]?.source ?? '';
    const stop = new AbortController();
    const pending = fetchError(download(source, 20 * MB, stop.signal));
    await discord.waitFor(() => (discord.cdn.downloads(source) === 1 ? true : undefined), 'the request');
    stop.abort();
    expect(await pending).toBe(attachmentReasons.timedOut);
  });

  it('refuses, without any request, a URL off Discord’s CDN or not a URL at all', async () => {
    const m = discord.injectMessage({
      dmUserId: ALICE,
      content: 'x',
      attachments: [
        { filename: 'x.png', content_type: 'image/png', url: 'http://169.254.169.254/latest/meta-data' },
      ],
    });
    const source = (await eventOf(m.id)).attachments?.[0]?.source ?? '';
    const before = { rest: discord.calls.length, cdn: discord.cdn.fetches.length };
    for (const url of [
      source,
      'https://cdn.discordapp.com.evil.example/attachments/1/2/x.png',
      'http://cdn.discordapp.com/attachments/1/2/x.png',
      'https://cdn.discordapp.com:8443/attachments/1/2/x.png',
      `${discord.apiUrl.replace('127.0.0.1', 'localhost')}/x`,
      'not a url',
    ]) {
      expect(await fetchError(download(url))).toBe(attachmentReasons.notOnPlatform);
    }
    expect({ rest: discord.calls.length, cdn: discord.cdn.fetches.length }).toEqual(before);
  });
});

describe('discord sendFile', () => {
  const file = { name: 'report.pdf', bytes: PDF, mime: 'application/pdf', as: 'document' as const };

  it('uploads the file as an attachment of one message into a thread, with its caption', async () => {
    expect(adapter().maxUploadBytes).toBe(DISCORD_MAX_UPLOAD_BYTES);
    const sendFile = adapter().sendFile;
    if (!sendFile) throw new Error('no sendFile');
    const ref = await sendFile(
      { channel: adapter().key, chat: discord.textChannelId, thread: discord.threadId },
      { ...file, caption: 'the report @everyone' },
    );
    expect(ref).toEqual({ channel: 'discord.files', chat: discord.threadId, messageId: expect.any(String) });
    const [sent] = discord.sentFiles.filter((s) => s.message.id === ref.messageId);
    expect(sent?.message.channel_id).toBe(discord.threadId);
    expect(sent?.content).toBe('the report @everyone');
    expect(sent?.files.map((f) => [f.field, f.filename, f.contentType])).toEqual([
      ['files[0]', 'report.pdf', 'application/pdf'],
    ]);
    expect(sent?.files[0]?.bytes).toEqual(PDF);
    const call = discord.calls.find((c) => (c.response as { id?: string })?.id === ref.messageId);
    // The caption pings no one; the token authorises the upload.
    expect(call?.body).toMatchObject({ allowed_mentions: { parse: [] } });
    expect(call?.authorization).toBe(`Bot ${discord.token}`);
  });

  it('sends a file without a caption, and a 429 becomes ChannelRateLimitError, the retry sending it once', async () => {
    const sendFile = adapter().sendFile;
    if (!sendFile) throw new Error('no sendFile');
    const to = { channel: adapter().key, chat: discord.textChannelId };
    const before = discord.sentFiles.length;
    discord.failNext({
      status: 429,
      retryAfterSec: 5,
      match: (m, p) => m === 'POST' && p.endsWith('/messages'),
    });
    const err = await sendFile(to, file).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ChannelRateLimitError);
    expect(discord.sentFiles.length).toBe(before);
    const ref = await sendFile(to, file);
    const sent = discord.sentFiles.slice(before);
    expect(sent.map((s) => [s.message.id, s.content, s.files[0]?.filename])).toEqual([
      [ref.messageId, '', 'report.pdf'],
    ]);
  });
});
