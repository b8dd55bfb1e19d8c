// Webhook mode gets an album's parts as separate requests close together: each part waits here, keyed by chat and
// media_group_id, until no part came for `quietMs` (or `maxWaitMs` after the first, or the album is full); then
// the parts are handed over together, and every part's request is answered with that one outcome, so Telegram
// is told only once the merged event is in the inbox (or refused). A part arriving after that starts a new wait.
import { ALBUM_MAX_PARTS, ALBUM_MAX_WAIT_MS, ALBUM_QUIET_MS } from './telegram-album.ts';

export interface AlbumCollectorOptions {
  /** Hands the parts' raw updates over together; resolves once they are in the inbox (or refused). */
  flush(updates: unknown[], signal: AbortSignal): Promise<void>;
  quietMs?: number;
  maxWaitMs?: number;
}

interface OpenAlbum {
  updates: unknown[];
  signals: AbortSignal[];
  firstAt: number;
  timer?: NodeJS.Timeout;
  done: PromiseWithResolvers<void>;
}

export function createAlbumCollector(opts: AlbumCollectorOptions) {
  const quietMs = opts.quietMs ?? ALBUM_QUIET_MS;
  const maxWaitMs = opts.maxWaitMs ?? ALBUM_MAX_WAIT_MS;
  const open = new Map<string, OpenAlbum>();

  function flush(key: string, album: OpenAlbum): void {
    if (open.get(key) !== album) return;
    open.delete(key);
    clearTimeout(album.timer);
    // A request that gives up (stopping, or its own deadline) gives the album up: Telegram redelivers it.
    opts.flush(album.updates, AbortSignal.any(album.signals)).then(album.done.resolve, album.done.reject);
  }

  return {
    /** Adds one part; resolves (or rejects) with the delivery of the album it ends up in. */
    join(key: string, update: unknown, signal: AbortSignal): Promise<void> {
      let joined = open.get(key);
      if (!joined) {
        joined = { updates: [], signals: [], firstAt: Date.now(), done: Promise.withResolvers<void>() };
        open.set(key, joined);
      }
      joined.updates.push(update);
      joined.signals.push(signal);
      clearTimeout(joined.timer);
      const wait = Math.max(0, Math.min(quietMs, joined.firstAt + maxWaitMs - Date.now()));
      const album = joined;
      album.timer = setTimeout(() => flush(key, album), wait);
      if (signal.aborted) flush(key, album);
      else signal.addEventListener('abort', () => flush(key, album), { once: true });
      if (album.updates.length >= ALBUM_MAX_PARTS) flush(key, album);
      return album.done.promise;
    },
  };
}
