// Telegram files at the adapter, on real grammy against the fake Bot API: what a file message becomes, and its
// download through getFile and the file URL (with Telegram's refusals as reasons). sendFile: telegram-send-file-adapter.
// (The runtime path, through the gateway's intake and Redis, is in telegram-files.test.ts.)
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTelegramAdapter } from '../../../channels/telegram/telegram-adapter.ts';
import type { ChannelAdapter, ChannelHost, InboundMessage } from '../../../src/channel-host/types.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { AttachmentFetchError } from '../../../src/media/attachment.ts';
import { attachmentReasons } from '../../../src/media/media-messages.ts';
import { fileMessage } from '../../fakes/telegram-files.ts';
import { type FakeTelegram, startFakeTelegram } from '../../fakes/telegram-server.ts';
import { user } from '../../fakes/telegram-wire.ts';
import { waitFor } from '../../helpers/wait.ts';

const MIB = 1024 * 1024;
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 2, 3]);
let tg: FakeTelegram;
let adapter: ChannelAdapter;
let events: InboundMessage[];
const host: ChannelHost = {
  async receive(e) {
    events.push(e as InboundMessage);
    return { accepted: true, conversation: 'c' };
  },
};

beforeEach(async () => {
  events = [];
  tg = await startFakeTelegram({ token: 'T1' });
  adapter = createTelegramAdapter({
    alias: 'home',
    botToken: 'T1',
    apiBaseUrl: `${tg.url}/`,
    logger: createSilentLogger(),
  });
  await adapter.start(host);
});
afterEach(async () => {
  await adapter.stop();
  await tg.close();
});

const waitEvents = (n: number) => waitFor(() => events.length >= n, 20_000, `${n} inbound events`);
/** The reason a download failed with (it must fail). */
async function reasonOf(download: Promise<unknown>): Promise<string> {
  const err = await download.then(
    () => new Error('downloaded'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AttachmentFetchError);
  return (err as AttachmentFetchError).reason;
}
const signal = () => AbortSignal.timeout(20_000);

describe('telegram files in', () => {
  it('makes every file kind an attachment with its file_id as source, with or without a caption', async () => {
    const f = (size = 100) => tg.files.addFile({ bytes: 'x', claimedSize: size });
    const photo = f(50_000);
    const doc = f();
    const voice = f(3000);
    const audio = f();
    const anim = f();
    const sticker = f();
    const videoSticker = f();
    tg.injectMessage({ chat: 7, from: 7, extra: fileMessage('photo', photo, { caption: 'look' }) });
    tg.injectMessage({
      chat: 7,
      from: 7,
      extra: fileMessage('document', doc, { fileName: 'report.pdf', mime: 'application/pdf' }),
    });
    tg.injectMessage({ chat: 7, from: 7, extra: fileMessage('voice', voice) });
    tg.injectMessage({ chat: 7, from: 7, extra: fileMessage('audio', audio, { mime: 'audio/mpeg' }) });
    // An animation comes with a `document` copy too: it is one file, an animation.
    tg.injectMessage({
      chat: 7,
      from: 7,
      extra: { ...fileMessage('document', anim), ...fileMessage('animation', anim, { mime: 'video/mp4' }) },
    });
    tg.injectMessage({ chat: 7, from: 7, extra: fileMessage('sticker', sticker) });
    tg.injectMessage({
      chat: 7,
      from: 7,
      extra: fileMessage('sticker', videoSticker, { extra: { is_video: true } }),
    });
    await waitEvents(7);
    expect(events.map((e) => [e.text, e.attachments])).toEqual([
      [
        'look',
        [
          {
            kind: 'image',
            name: `photo-${photo.file_unique_id}.jpg`,
            size: 50_000,
            mime: 'image/jpeg',
            source: photo.file_id,
          },
        ],
      ],
      [
        '',
        [{ kind: 'document', name: 'report.pdf', size: 100, mime: 'application/pdf', source: doc.file_id }],
      ],
      [
        '',
        [
          {
            kind: 'voice',
            name: `voice-${voice.file_unique_id}.ogg`,
            size: 3000,
            mime: 'audio/ogg',
            source: voice.file_id,
          },
        ],
      ],
      [
        '',
        [
          {
            kind: 'audio',
            name: `audio-${audio.file_unique_id}.mpeg`,
            size: 100,
            mime: 'audio/mpeg',
            source: audio.file_id,
          },
        ],
      ],
      [
        '',
        [
          {
            kind: 'animation',
            name: `animation-${anim.file_unique_id}.mp4`,
            size: 100,
            mime: 'video/mp4',
            source: anim.file_id,
          },
        ],
      ],
      [
        '',
        [
          {
            kind: 'image',
            name: `sticker-${sticker.file_unique_id}.webp`,
            size: 100,
            mime: 'image/webp',
            source: sticker.file_id,
          },
        ],
      ],
      [
        '',
        [
          {
            kind: 'file',
            name: `sticker-${videoSticker.file_unique_id}.webm`,
            size: 100,
            mime: 'video/webm',
            source: videoSticker.file_id,
          },
        ],
      ],
    ]);
  });

  it('counts a mention in a caption, keeps an odd file name raw, and turns a file without a file_id into a failed one', async () => {
    const doc = tg.files.addFile({ bytes: 'x' });
    const forum = { id: -1001, type: 'supergroup' as const, is_forum: true };
    tg.injectMessage({
      chat: forum,
      from: user(8, 'bob'),
      thread: 4,
      extra: fileMessage('photo', doc, { caption: 'hey @baton_test_bot' }),
    });
    tg.injectMessage({
      chat: 7,
      from: 7,
      extra: fileMessage('document', doc, { fileName: '../../etc/passwd' }),
    });
    tg.injectMessage({ chat: 7, from: 7, extra: { caption: 'broken', document: { file_name: 'a.txt' } } });
    tg.injectMessage({ chat: 7, from: 7, extra: { photo: [] } });
    await waitEvents(4);
    expect(events[0]).toMatchObject({
      chat: '-1001',
      thread: '4',
      text: 'hey @baton_test_bot',
      addressedToBot: true,
    });
    // The name stays as sent: the host makes it safe before it is ever a path.
    expect(events[1]?.attachments?.[0]?.name).toBe('../../etc/passwd');
    const noReference = (name: string) => [{ kind: 'file', name, failed: attachmentReasons.noReference }];
    expect(events[2]?.attachments).toEqual(noReference(`document-${events[2]?.eventId.split(':')[1]}`));
    expect(events[3]?.attachments).toEqual(noReference(`photo-${events[3]?.eventId.split(':')[1]}`));
  });
});

describe('telegram download', () => {
  it('fetches through getFile and the file URL, within the limit', async () => {
    const file = tg.files.addFile({ bytes: JPEG, path: 'photos/file_9.jpg' });
    const bytes = await adapter.download!(file.file_id, 20 * MIB, signal());
    expect(Buffer.from(bytes)).toEqual(JPEG);
    expect(tg.files.downloads('photos/file_9.jpg')).toBe(1);
    expect(tg.calls.find((c) => c.method === 'getFile')?.params).toEqual({ file_id: file.file_id });
  });

  it('shares one download between concurrent asks for the same file (a webhook retry during a slow fetch)', async () => {
    const file = tg.files.addFile({ bytes: JPEG, path: 'photos/shared.jpg' });
    const [a, b] = await Promise.all([
      adapter.download!(file.file_id, MIB, signal()),
      adapter.download!(file.file_id, MIB, signal()),
    ]);
    expect([Buffer.from(a), Buffer.from(b)]).toEqual([JPEG, JPEG]);
    expect(tg.files.downloads('photos/shared.jpg')).toBe(1);
    // Once done, a later ask fetches again (the host's blob, not the adapter, makes redeliveries free).
    await adapter.download!(file.file_id, MIB, signal());
    expect(tg.files.downloads('photos/shared.jpg')).toBe(2);
  });

  it('explains each refusal, and never carries the token in an error', async () => {
    const unknown = reasonOf(adapter.download!('no-such-id', 20 * MIB, signal()));
    expect(await unknown).toBe(attachmentReasons.notFound);
    const big = tg.files.addFile({ bytes: 'x', claimedSize: 21 * MIB });
    expect(await reasonOf(adapter.download!(big.file_id, 50 * MIB, signal()))).toBe(
      'larger than Telegram lets bots download (20 MB)',
    );
    expect(tg.files.downloads()).toBe(0);
    const claimed = tg.files.addFile({ bytes: 'x', claimedSize: 2 * MIB });
    expect(await reasonOf(adapter.download!(claimed.file_id, MIB, signal()))).toBe(
      attachmentReasons.tooLarge(MIB),
    );
    expect(tg.files.downloads()).toBe(0);
    // The file is bigger than getFile said: the body stops at the limit.
    const liar = tg.files.addFile({ bytes: Buffer.alloc(4096, 1), claimedSize: 10 });
    expect(await reasonOf(adapter.download!(liar.file_id, 1000, signal()))).toBe(
      attachmentReasons.tooLarge(1000),
    );

    // A local Bot API server in --local mode answers a path on its disk: not fetched.
    const local = tg.files.addFile({ bytes: 'x', path: '/var/lib/telegram-bot-api/T1/documents/file_1.pdf' });
    expect(await reasonOf(adapter.download!(local.file_id, MIB, signal()))).toBe(
      attachmentReasons.unsupported,
    );
    expect(tg.files.downloads(local.file_path)).toBe(0);

    const refused = tg.files.addFile({ bytes: JPEG });
    tg.files.failDownload(refused.file_path, { status: 403 });
    const err = await adapter.download!(refused.file_id, MIB, signal()).catch((e: unknown) => e);
    expect((err as AttachmentFetchError).reason).toBe(attachmentReasons.refused(403));
    expect(`${(err as Error).message} ${(err as Error).stack}`).not.toContain('T1');
    tg.files.failDownload(refused.file_path, { status: 500 });
    expect(await reasonOf(adapter.download!(refused.file_id, MIB, signal()))).toBe(
      attachmentReasons.refused(500),
    );
    tg.failNext('getFile', { status: 500 });
    expect(await reasonOf(adapter.download!(refused.file_id, MIB, signal()))).toBe(
      attachmentReasons.refused(500),
    );
    // Once Telegram serves it again, it downloads.
    expect(Buffer.from(await adapter.download!(refused.file_id, MIB, signal()))).toEqual(JPEG);
  });

  it('gives up on a download that hangs when its signal fires', async () => {
    const file = tg.files.addFile({ bytes: JPEG });
    tg.files.failDownload(file.file_path, { hang: true });
    const abort = new AbortController();
    const pending = reasonOf(adapter.download!(file.file_id, MIB, abort.signal));
    await waitFor(() => tg.files.downloads(file.file_path) === 1, 20_000, 'the download started');
    abort.abort();
    expect(await pending).toBe(attachmentReasons.timedOut);
  });
});
