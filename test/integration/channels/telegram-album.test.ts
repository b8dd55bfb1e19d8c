// A Telegram album (media group) by long polling, end to end: the fake Bot API ↔ real grammy adapter ↔ gateway
// intake ↔ Redis inbox ↔ worker ↔ fake vision model. The album's parts are one turn; redelivery starts nothing;
// order within the chat is kept; a part arriving after its album was handed over is a turn of its own.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lastUserPartsOf, type UserPart } from '../../fakes/model-requests.ts';
import type { RecordedRequest } from '../../fakes/model-server.ts';
import { type FakeTgFile, fileMessage } from '../../fakes/telegram-files.ts';
import { type FakeTelegram, startFakeTelegram } from '../../fakes/telegram-server.ts';
import type { TgMessage } from '../../fakes/telegram-wire.ts';
import { askedOf } from '../../helpers/model-requests.ts';
import { createRuntimeHarness, type RuntimeHarness } from '../../helpers/runtime-harness.ts';
import { VISION_AGENT_TOML } from '../../helpers/test-config.ts';
import { waitFor } from '../../helpers/wait.ts';

/** JPEG signatures with a distinct tail each, so the order of the image parts shows. */
const jpeg = (n: number) =>
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 2, n]);
let tg: FakeTelegram;
let h: RuntimeHarness;

const toml = (url: string) => `
${VISION_AGENT_TOML}

[channels.telegram.home]
enabled = true
bot_token = "T1"
api_base_url = "${url}/"
mention_only = true

[peer_groups.tg]
channel = "telegram"
agents = ["main"]
external_peers = ["7"]
`;

beforeAll(async () => {
  tg = await startFakeTelegram({ token: 'T1' });
  h = await createRuntimeHarness('telegram-album', toml(tg.url), { platformChannels: true });
});
afterAll(async () => {
  await h?.close();
  await tg?.close();
});
beforeEach(() => {
  h.server.reset();
  h.server.respond(() => ({ text: 'seen' }));
});

const replies = (chat: number, count: number) =>
  waitFor(() => tg.sentTo(chat).length >= count, 30_000, `${count} replies in ${chat}`);
/** The user message of the i-th model request, as its parts. */
const partsOf = (i: number) => lastUserPartsOf(h.server.requests[i] as RecordedRequest);
const text = (t: string): UserPart => ({ type: 'text', text: t });
const image = (bytes: Buffer): UserPart => ({
  type: 'image',
  mediaType: 'image/jpeg',
  base64: bytes.toString('base64'),
});
const nameOf = (f: FakeTgFile) => `photo-${f.file_unique_id}.jpg`;
/** The saved-as line of a photo of the event whose id is `<chat>:<messageId>`. */
const line = (chat: number, messageId: number, f: FakeTgFile) =>
  `[attachment: image ${nameOf(f)}, 14 B, saved as inbox/telegram.home_${chat}_/${chat}_${messageId}-${nameOf(f)}]`;

/** Queues an album's parts in one getUpdates batch (plus `then`, a text after it); captions by part index. */
function sendAlbum(
  chat: number,
  group: string,
  files: FakeTgFile[],
  captions: Record<number, string> = {},
  then?: string,
): { updateId: number; message: TgMessage }[] {
  return tg.together(() => {
    const parts = files.map((f, i) => {
      const caption = captions[i];
      const extra = { ...fileMessage('photo', f, caption ? { caption } : {}), media_group_id: group };
      return tg.injectMessage({ chat, from: 7, extra });
    });
    if (then) tg.injectMessage({ chat, from: 7, text: then });
    return parts;
  });
}

const addPhotos = (tag: string) =>
  [1, 2, 3].map((n) => tg.files.addFile({ bytes: jpeg(n), path: `photos/${tag}_${n}.jpg` }));

describe('telegram albums by long polling', () => {
  it('makes an album of three photos one turn: the caption, three lines and three images, in order', async () => {
    const files = addPhotos('a');
    const parts = sendAlbum(50, 'g-50', files, { 0: 'compare these' });
    await replies(50, 1);
    await waitFor(() => tg.pending(0, 100).length === 0, 20_000, 'the album confirmed');
    expect(h.server.requests).toHaveLength(1);
    const first = (parts[0] as { message: TgMessage }).message.message_id;
    expect(partsOf(0)).toEqual([
      text(['compare these', ...files.map((f) => line(50, first, f))].join('\n')),
      ...[1, 2, 3].map((n) => image(jpeg(n))),
    ]);
    expect(tg.sentTo(50).map((s) => s.message.text)).toEqual(['seen']);
  });

  it('starts nothing when the album comes again, whole or one part alone, and downloads each file once', async () => {
    const files = addPhotos('b');
    const parts = sendAlbum(51, 'g-51', files, { 0: 'first time' });
    await replies(51, 1);
    tg.together(() => {
      for (const p of parts)
        tg.injectUpdate({ message: p.message }, { updateId: p.updateId, redeliver: true });
    });
    const second = parts[1] as { updateId: number; message: TgMessage };
    tg.injectUpdate({ message: second.message }, { updateId: second.updateId, redeliver: true });
    tg.injectMessage({ chat: 51, from: 7, text: 'after the redeliveries' });
    // Same chat, in order: a turn for a redelivery would come before this one.
    await replies(51, 2);
    expect(h.server.requests.map(askedOf).at(-1)).toBe('after the redeliveries');
    expect(h.server.requests).toHaveLength(2);
    for (const n of [1, 2, 3]) expect(tg.files.downloads(`photos/b_${n}.jpg`)).toBe(1);
  });

  it('answers a message sent right after an album after the album, and takes a caption mention on any part', async () => {
    const files = addPhotos('c');
    // A group with mention_only: only the second part's caption names the bot.
    sendAlbum(-52, 'g-52', files, { 1: '@baton_test_bot which is best?' }, '@baton_test_bot and now?');
    await replies(-52, 2);
    expect(h.server.requests).toHaveLength(2);
    expect(partsOf(0)).toHaveLength(4);
    expect(partsOf(0)[0]).toMatchObject({
      text: expect.stringMatching(/^@baton_test_bot which is best\?\n/),
    });
    expect(askedOf(h.server.requests[1] as RecordedRequest)).toBe('@baton_test_bot and now?');
  });

  it('looks ahead for the parts of an album that ends its batch, without confirming it', async () => {
    const files = addPhotos('e');
    let first: { updateId: number; message: TgMessage } | undefined;
    let later: { updateId: number; message: TgMessage }[] = [];
    let lookedFrom: unknown;
    // The rest of the album is queued the moment the adapter first looks past the batch holding the first part.
    tg.onCall((c) => {
      if (!first || later.length || c.method !== 'getUpdates' || c.params.timeout !== 0) return;
      lookedFrom = c.params.offset;
      later = sendAlbum(54, 'g-54', files.slice(1));
    });
    [first] = sendAlbum(54, 'g-54', files.slice(0, 1), { 0: 'three, one by one' });
    await replies(54, 1);
    expect(later).toHaveLength(2);
    expect(lookedFrom).toBe(first?.updateId); // confirms nothing of the batch
    expect(h.server.requests).toHaveLength(1);
    expect(partsOf(0).filter((p) => p.type === 'image')).toEqual([1, 2, 3].map((n) => image(jpeg(n))));
    // grammy's next batch hands the looked-ahead parts again: nothing more starts.
    await waitFor(() => tg.pending(0, 100).length === 0, 20_000, 'every part confirmed');
    tg.injectMessage({ chat: 54, from: 7, text: 'next' });
    await replies(54, 2);
    expect(h.server.requests.map(askedOf).at(-1)).toBe('next');
    expect(h.server.requests).toHaveLength(2);
  });

  it('makes a part that arrives after its album was handed over a turn of its own', async () => {
    const [a, b] = addPhotos('d') as [FakeTgFile, FakeTgFile];
    const [early] = sendAlbum(53, 'g-53', [a], { 0: 'two coming' });
    await replies(53, 1);
    const [late] = sendAlbum(53, 'g-53', [b]);
    await replies(53, 2);
    expect(h.server.requests).toHaveLength(2);
    const ids = [early, late].map((p) => (p as { message: TgMessage }).message.message_id);
    expect(partsOf(0)).toEqual([text(`two coming\n${line(53, ids[0] as number, a)}`), image(jpeg(1))]);
    expect(partsOf(1)).toEqual([text(line(53, ids[1] as number, b)), image(jpeg(2))]);
  });
});
