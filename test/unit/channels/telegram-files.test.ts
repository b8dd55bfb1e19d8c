// What a Telegram message's file becomes (channels/telegram/telegram-files.ts): the odd shapes the adapter test
// does not send through grammy.
import { describe, expect, it } from 'vitest';
import { attachmentsOf } from '../../../channels/telegram/telegram-files.ts';
import { parseUpdate } from '../../../channels/telegram/telegram-inbound.ts';
import { attachmentReasons } from '../../../src/media/media-messages.ts';

const me = { id: 1, username: 'bot' };
const ref = (id: string, extra: Record<string, unknown> = {}) => ({
  file_id: `F${id}`,
  file_unique_id: id,
  ...extra,
});

describe('telegram attachmentsOf', () => {
  it('takes the largest photo size by area, whatever the order', () => {
    const photo = [
      ref('big', { width: 1280, height: 720, file_size: 90_000 }),
      ref('small', { width: 90, height: 50, file_size: 1000 }),
    ];
    expect(attachmentsOf({ photo }, 5)).toEqual([
      { kind: 'image', name: 'photo-big.jpg', size: 90_000, mime: 'image/jpeg', source: 'Fbig' },
    ]);
  });

  it('names what Telegram leaves unnamed, and keeps the names it gives', () => {
    expect(attachmentsOf({ video_note: ref('vn', { length: 240 }) }, 5)).toEqual([
      { kind: 'video', name: 'video-note-vn.mp4', mime: 'video/mp4', source: 'Fvn' },
    ]);
    expect(
      attachmentsOf({ video: ref('v', { file_name: 'clip.mov', mime_type: 'video/quicktime' }) }, 5),
    ).toEqual([{ kind: 'video', name: 'clip.mov', mime: 'video/quicktime', source: 'Fv' }]);
    expect(attachmentsOf({ audio: ref('a') }, 5)).toEqual([
      { kind: 'audio', name: 'audio-a.mp3', source: 'Fa' },
    ]);
    expect(attachmentsOf({ document: ref('d') }, 5)).toEqual([
      { kind: 'document', name: 'document-d', source: 'Fd' },
    ]);
    expect(attachmentsOf({ sticker: ref('s', { is_animated: true }) }, 5)).toEqual([
      { kind: 'file', name: 'sticker-s.tgs', mime: 'application/x-tgsticker', source: 'Fs' },
    ]);
  });

  it('cuts a 10,000-character name keeping its end, keeps control characters raw, drops an absurd MIME type', () => {
    const long = `${'a'.repeat(10_000)}.pdf`;
    const [a] = attachmentsOf({ document: ref('d', { file_name: long, mime_type: 'x'.repeat(300) }) }, 5);
    expect(a?.name).toHaveLength(1000);
    expect(a?.name.endsWith('aaaa.pdf')).toBe(true);
    expect(a?.mime).toBeUndefined();
    expect(attachmentsOf({ document: ref('d', { file_name: 'a\u0000b\nc.txt' }) }, 5)[0]?.name).toBe(
      'a\u0000b\nc.txt',
    );
  });

  it('uses the message id where file_unique_id is missing or not a plain id', () => {
    expect(attachmentsOf({ voice: { file_id: 'x' } }, 77)[0]?.name).toBe('voice-77.ogg');
    expect(attachmentsOf({ voice: { file_id: 'x', file_unique_id: '../../x' } }, 77)[0]?.name).toBe(
      'voice-77.ogg',
    );
  });

  it('gives a failed attachment for a file it cannot fetch, never throws', () => {
    const failed = (name: string) => [{ kind: 'file', name, failed: attachmentReasons.noReference }];
    expect(attachmentsOf({ photo: [] }, 3)).toEqual(failed('photo-3'));
    expect(attachmentsOf({ photo: 'nope' }, 3)).toEqual(failed('photo-3'));
    expect(attachmentsOf({ document: { file_id: '' } }, 3)).toEqual(failed('document-3'));
    expect(attachmentsOf({ voice: { file_id: 'x', file_size: -1 } }, 3)).toEqual(failed('voice-3'));
    expect(attachmentsOf({ text: 'hi', poll: {} }, 3)).toEqual([]);
  });
});

describe('telegram parseUpdate with files', () => {
  const msg = (extra: Record<string, unknown>) => ({
    update_id: 1,
    message: {
      message_id: 9,
      date: 0,
      chat: { id: 7, type: 'private' },
      from: { id: 7, is_bot: false },
      ...extra,
    },
  });

  it('makes a file without a caption a turn with empty text, and a caption its text', () => {
    const bare = parseUpdate(msg({ voice: ref('v') }), 'telegram.home', me);
    expect(bare).toMatchObject({ kind: 'message', event: { text: '', attachments: [{ kind: 'voice' }] } });
    const captioned = parseUpdate(msg({ document: ref('d'), caption: 'see' }), 'telegram.home', me);
    expect(captioned).toMatchObject({ kind: 'message', event: { text: 'see' } });
  });

  it('still skips a message with neither text nor file, and an empty text', () => {
    expect(parseUpdate(msg({ caption: 'orphan caption' }), 'telegram.home', me)).toEqual({
      kind: 'skip',
      reason: 'not a text message',
    });
    expect(parseUpdate(msg({ text: '  ' }), 'telegram.home', me)).toEqual({
      kind: 'skip',
      reason: 'empty text',
    });
  });

  it('counts a mention in caption_entities as addressing the bot', () => {
    const group = {
      update_id: 2,
      message: {
        message_id: 10,
        date: 0,
        chat: { id: -5, type: 'supergroup' },
        from: { id: 7, is_bot: false },
        photo: [ref('p')],
        caption: 'hi @bot',
        caption_entities: [{ type: 'mention', offset: 3, length: 4 }],
      },
    };
    expect(parseUpdate(group, 'telegram.home', me)).toMatchObject({
      event: { addressedToBot: true, text: 'hi @bot' },
    });
  });
});
