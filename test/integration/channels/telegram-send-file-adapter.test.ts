// Telegram sendFile at the adapter, on real grammy against the fake Bot API: multipart sendPhoto / sendDocument /
// sendVoice as grammy really writes them, the caption limit, the document fallback, 429s.
// (send_file end to end, through the worker and the reply pump, is in telegram-send-file.test.ts.)
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTelegramAdapter } from '../../../channels/telegram/telegram-adapter.ts';
import { type ChannelAdapter, ChannelRateLimitError } from '../../../src/channel-host/types.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { type FakeTelegram, startFakeTelegram } from '../../fakes/telegram-server.ts';

const MIB = 1024 * 1024;
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 2, 3]);
let tg: FakeTelegram;
let adapter: ChannelAdapter;

beforeEach(async () => {
  tg = await startFakeTelegram({ token: 'T1' });
  adapter = createTelegramAdapter({
    alias: 'home',
    botToken: 'T1',
    apiBaseUrl: `${tg.url}/`,
    logger: createSilentLogger(),
  });
  // Not started: sending needs no polling.
});
afterEach(async () => {
  await tg.close();
});

describe('telegram sendFile', () => {
  const to = { channel: 'telegram.home', chat: '-1001', thread: '4' };

  it('sends a photo into a topic with its caption as multipart, the bytes exactly', async () => {
    const ref = await adapter.sendFile!(to, {
      name: 'chart.jpg',
      bytes: JPEG,
      mime: 'image/jpeg',
      as: 'photo',
      caption: 'the chart',
    });
    const [up] = tg.files.uploads;
    expect(up).toMatchObject({
      method: 'sendPhoto',
      filename: 'chart.jpg',
      caption: 'the chart',
      chatId: -1001,
      thread: 4,
    });
    expect(up?.bytes).toEqual(JPEG);
    expect(ref).toEqual({
      channel: 'telegram.home',
      chat: '-1001',
      messageId: String(tg.sentTo(-1001, 4)[0]?.message.message_id),
    });
    // What grammy really writes (no spaces, filename unquoted): the fake's parser is checked against it.
    expect(up?.contentType).toMatch(/^multipart\/form-data; boundary=-{10}\w{32}$/);
    const raw = up?.raw.toString('latin1') ?? '';
    expect(raw).toContain('content-disposition:form-data;name="chat_id"\r\n\r\n-1001\r\n');
    expect(raw).toContain('content-disposition:form-data;name="message_thread_id"\r\n\r\n4\r\n');
    expect(raw).toMatch(/content-disposition:form-data;name="photo"\r\n\r\nattach:\/\/(\w+)\r\n/);
    const id = /attach:\/\/(\w+)/.exec(raw)?.[1];
    expect(raw).toContain(
      `content-disposition:form-data;name="${id}";filename=chart.jpg\r\ncontent-type:application/octet-stream\r\n\r\n${JPEG.toString('latin1')}\r\n`,
    );
  });

  it('sends a document and a voice note; a long caption is cut to 1024 characters', async () => {
    await adapter.sendFile!(
      { channel: 'telegram.home', chat: '7' },
      {
        name: 'report.pdf',
        bytes: Buffer.from('%PDF-1.4'),
        mime: 'application/pdf',
        as: 'document',
        caption: 'é'.repeat(2000),
      },
    );
    await adapter.sendFile!(
      { channel: 'telegram.home', chat: '7' },
      { name: 'note.ogg', bytes: Buffer.from('OggS'), mime: 'audio/ogg', as: 'voice' },
    );
    expect(tg.files.uploads.map((u) => [u.method, u.filename, u.bytes.toString(), u.thread])).toEqual([
      ['sendDocument', 'report.pdf', '%PDF-1.4', undefined],
      ['sendVoice', 'note.ogg', 'OggS', undefined],
    ]);
    expect(tg.files.uploads[0]?.caption).toBe(`${'é'.repeat(1023)}…`);
    expect(tg.files.uploads[1]?.caption).toBeUndefined();
  });

  it('uploads under a safe name whatever name it is handed', async () => {
    await adapter.sendFile!(to, {
      name: 'a b;\r\n"c".txt',
      bytes: Buffer.from('x'),
      mime: 'text/plain',
      as: 'document',
    });
    expect(tg.files.uploads.map((u) => u.filename)).toEqual(['a_b____c_.txt']);
  });

  it('sends a photo Telegram cannot process as a document', async () => {
    tg.failNext('sendPhoto', { status: 400, description: 'Bad Request: PHOTO_INVALID_DIMENSIONS' });
    await adapter.sendFile!(to, {
      name: 'wide.png',
      bytes: JPEG,
      mime: 'image/png',
      as: 'photo',
      caption: 'wide',
    });
    expect(tg.calls.filter((c) => c.method.startsWith('send')).map((c) => c.method)).toEqual([
      'sendPhoto',
      'sendDocument',
    ]);
    expect(tg.files.uploads).toMatchObject([
      { method: 'sendDocument', filename: 'wide.png', caption: 'wide', thread: 4 },
    ]);
  });

  it('waits out a short 429 and sends once; a long one is the pump’s rate limit', async () => {
    tg.failNext('sendDocument', { status: 429, retryAfter: 1 });
    await adapter.sendFile!(to, {
      name: 'a.txt',
      bytes: Buffer.from('a'),
      mime: 'text/plain',
      as: 'document',
    });
    expect(tg.calls.filter((c) => c.method === 'sendDocument')).toHaveLength(2);
    expect(tg.files.uploads.map((u) => u.bytes.toString())).toEqual(['a']);

    tg.failNext('sendDocument', { status: 429, retryAfter: 60 });
    const err = await adapter.sendFile!(to, {
      name: 'b.txt',
      bytes: Buffer.from('b'),
      mime: 'text/plain',
      as: 'document',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChannelRateLimitError);
    expect((err as ChannelRateLimitError).retryAfterMs).toBe(60_000);
    expect(tg.files.uploads).toHaveLength(1);
    expect(adapter.maxUploadBytes).toBe(50 * MIB);
  });
});
