// Telegram albums in parts (channels/telegram/telegram-album.ts, album-collector.ts): the merged event, the
// ledger of parts handed over, and webhook mode's bounded wait (on fake timers).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAlbumCollector } from '../../../channels/telegram/album-collector.ts';
import {
  ALBUM_MAX_WAIT_MS,
  ALBUM_QUIET_MS,
  type AlbumPart,
  albumKeyOf,
  createAlbumLedger,
  mergeAlbum,
} from '../../../channels/telegram/telegram-album.ts';
import { parseUpdate } from '../../../channels/telegram/telegram-inbound.ts';

const me = { id: 1, username: 'bot' };
const photo = (id: string) => [{ file_id: `F${id}`, file_unique_id: id, width: 10, height: 10 }];
const update = (messageId: number, extra: Record<string, unknown>) => ({
  update_id: messageId + 1000,
  message: {
    message_id: messageId,
    date: 0,
    chat: { id: -5, type: 'supergroup' },
    from: { id: 7, is_bot: false },
    media_group_id: 'G1',
    photo: photo(`p${messageId}`),
    ...extra,
  },
});
function partOf(u: unknown): AlbumPart {
  const parsed = parseUpdate(u, 'telegram.t', me);
  if (parsed.kind !== 'message' || !parsed.album) throw new Error(`not an album part: ${parsed.kind}`);
  return { event: parsed.event, messageId: parsed.album.messageId };
}

describe('telegram album parts', () => {
  it('keys a part by chat and media_group_id; anything else, or an odd id, is no album', () => {
    expect(albumKeyOf(update(3, {}))).toBe('-5:G1');
    expect(albumKeyOf(update(3, { media_group_id: 42 }))).toBeNull();
    expect(albumKeyOf(update(3, { media_group_id: 'x'.repeat(300) }))).toBeNull();
    expect(albumKeyOf({ update_id: 1, callback_query: {} })).toBeNull();
    expect(albumKeyOf(null)).toBeNull();
    // An odd id costs the grouping, never the message.
    expect(parseUpdate(update(3, { media_group_id: 42 }), 'telegram.t', me)).toMatchObject({
      kind: 'message',
      event: { eventId: '-5:3' },
    });
  });

  it('merges parts into the first one’s event: every file in order, captions joined, addressed if any is', () => {
    const parts = [
      partOf(update(3, { caption: 'first' })),
      partOf(update(4, {})),
      partOf(
        update(5, { caption: '@bot second', caption_entities: [{ type: 'mention', offset: 0, length: 4 }] }),
      ),
    ];
    const merged = mergeAlbum(parts);
    expect(merged).toMatchObject({ eventId: '-5:3', text: 'first\n\n@bot second', addressedToBot: true });
    expect(merged.attachments?.map((a) => a.source)).toEqual(['Fp3', 'Fp4', 'Fp5']);
    expect(mergeAlbum([partOf(update(4, {}))])).toMatchObject({ text: '', addressedToBot: false });
  });

  it('hands each part over once: sorted, twice-sent parts once, and taken ones only after their delivery', async () => {
    const ledger = createAlbumLedger();
    const [a, b, c] = [3, 4, 5].map((n) => partOf(update(n, {}))) as [AlbumPart, AlbumPart, AlbumPart];
    const first = ledger.split([b, a, b]);
    expect(first.fresh.map((p) => p.messageId)).toEqual([3, 4]);
    const delivery = Promise.withResolvers<void>();
    ledger.track(first.fresh, delivery.promise);
    // A part coming again while its album is being handed over follows that delivery.
    const during = ledger.split([b, c]);
    expect(during.fresh.map((p) => p.messageId)).toEqual([5]);
    expect(during.underway).toEqual([delivery.promise]);
    delivery.resolve();
    await delivery.promise;
    expect(ledger.split([a, b])).toEqual({ fresh: [], underway: [] });

    // A failed delivery takes nothing: the redelivered parts are handed over again.
    const failing = Promise.withResolvers<void>();
    ledger.track([c], failing.promise);
    failing.reject(new Error('stopping'));
    await failing.promise.catch(() => {});
    expect(ledger.split([c]).fresh).toEqual([c]);
  });
});

describe('telegram album collector (webhook mode)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const collector = () => {
    const flushed: unknown[][] = [];
    const albums = createAlbumCollector({
      flush: async (updates) => void flushed.push(updates),
    });
    return { albums, flushed };
  };
  const live = () => new AbortController().signal;

  it('hands parts over together once none came for the quiet time, and answers each part with it', async () => {
    const { albums, flushed } = collector();
    const done = [albums.join('k', 1, live()), albums.join('k', 2, live())];
    await vi.advanceTimersByTimeAsync(ALBUM_QUIET_MS - 1);
    done.push(albums.join('k', 3, live()));
    await vi.advanceTimersByTimeAsync(ALBUM_QUIET_MS - 1);
    expect(flushed).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all(done);
    expect(flushed).toEqual([[1, 2, 3]]);
    // After that, the same key starts a new album (a late part is its own event).
    const late = albums.join('k', 4, live());
    await vi.advanceTimersByTimeAsync(ALBUM_QUIET_MS);
    await late;
    expect(flushed).toEqual([[1, 2, 3], [4]]);
  });

  it('waits at most the longest wait in all, flushes a full album at once, and one that is given up', async () => {
    const { albums, flushed } = collector();
    // A part every 400 ms (each within the quiet time): handed over 2 s after the first all the same.
    const step = ALBUM_MAX_WAIT_MS / 5;
    expect(step).toBeLessThan(ALBUM_QUIET_MS);
    const trickle: Promise<void>[] = [];
    for (let i = 0; i < 5; i++) {
      trickle.push(albums.join('slow', i, live()));
      await vi.advanceTimersByTimeAsync(step);
    }
    await Promise.all(trickle);
    expect(flushed).toEqual([[0, 1, 2, 3, 4]]);

    flushed.length = 0;
    const full = Array.from({ length: 10 }, (_, i) => albums.join('full', i, live()));
    await Promise.all(full); // no timer needed
    expect(flushed).toEqual([Array.from({ length: 10 }, (_, i) => i)]);

    const gave = new AbortController();
    const parts = [albums.join('gone', 1, live()), albums.join('gone', 2, gave.signal)];
    gave.abort();
    await Promise.all(parts);
    expect(flushed.at(-1)).toEqual([1, 2]);
  });

  it('passes a failed hand-over on to every part', async () => {
    const albums = createAlbumCollector({
      flush: async () => {
        throw new Error('inbox away');
      },
    });
    const parts = [albums.join('k', 1, live()), albums.join('k', 2, live())];
    const settled = Promise.allSettled(parts);
    await vi.advanceTimersByTimeAsync(ALBUM_QUIET_MS);
    expect((await settled).map((s) => s.status)).toEqual(['rejected', 'rejected']);
  });
});
