// A Telegram album (media group: up to 10 messages sharing `media_group_id`, the caption usually on the first)
// becomes one InboundMessage, so one turn sees every file [baton decision].
//
// The merged event's id is the id of its first part's own message (`<chat>:<lowest message id>`): a redelivered
// album maps to the same event (the inbox dedupes it) and its files keep their blob keys (same order, same
// index). A part that arrives after its album was handed over becomes an event of its own (never lost); a part
// this gateway already handed over in an album is dropped when it comes again alone (`takenParts`), which a
// restarted gateway no longer knows: then it is at worst a second turn on that one file, never a lost one.
import type { InboundMessage } from '../../src/channel-host/types.ts';

/** Telegram's own album limit; more parts under one id than this are handed over in several events. */
export const ALBUM_MAX_PARTS = 10;
/** How long an album waits for its next part (webhook mode: parts come as separate requests close together). */
export const ALBUM_QUIET_MS = 500;
/** The longest an album waits in all, however its parts trickle in. */
export const ALBUM_MAX_WAIT_MS = 2000;

export interface AlbumPart {
  event: InboundMessage;
  messageId: number;
}

/** `<chat>:<media_group_id>` for a message that is part of an album; null for anything else. */
export function albumKeyOf(update: unknown): string | null {
  const u = update as { message?: unknown; channel_post?: unknown } | null;
  const m = (u?.message ?? u?.channel_post) as
    | { chat?: { id?: unknown }; media_group_id?: unknown }
    | undefined;
  const group = m?.media_group_id;
  const chat = m?.chat?.id;
  if (typeof group !== 'string' || !group || group.length > 256 || typeof chat !== 'number') return null;
  return `${chat}:${group}`;
}

/** One event for the parts (non-empty, in message order): every file in order, the captions joined. */
export function mergeAlbum(parts: readonly AlbumPart[]): InboundMessage {
  const first = (parts[0] as AlbumPart).event;
  const captions = parts.map((p) => p.event.text).filter((t) => t.trim());
  const attachments = parts.flatMap((p) => p.event.attachments ?? []);
  return {
    ...first,
    text: captions.join('\n\n'),
    ...(attachments.length ? { attachments } : {}),
    addressedToBot: parts.some((p) => p.event.addressedToBot),
  };
}

/**
 * The album parts handed over lately, and those being handed over: a part that comes again alone starts
 * nothing (it follows the delivery under way, if any, so its confirmation still waits for the inbox).
 */
export function createAlbumLedger(max = 5000) {
  const taken = new Set<string>();
  const inFlight = new Map<string, Promise<void>>();
  const keyOf = (p: AlbumPart) => `${p.event.chat}:${p.messageId}`;
  return {
    /** The parts to hand over (each once, in message order), and the deliveries under way that hold the rest. */
    split(parts: readonly AlbumPart[]): { fresh: AlbumPart[]; underway: Promise<void>[] } {
      const seen = new Set<string>();
      const underway = new Set<Promise<void>>();
      const fresh = parts
        .filter((p) => {
          const key = keyOf(p);
          const running = inFlight.get(key);
          if (running) underway.add(running);
          if (running || taken.has(key) || seen.has(key)) return false;
          seen.add(key);
          return true;
        })
        .sort((a, b) => a.messageId - b.messageId);
      return { fresh, underway: [...underway] };
    },
    /** Tracks the delivery of `parts`: once it is done (accepted or refused by the host) they are taken. */
    track(parts: readonly AlbumPart[], delivery: Promise<void>): void {
      const keys = parts.map(keyOf);
      for (const k of keys) inFlight.set(k, delivery);
      const settle = (ok: boolean) => {
        for (const k of keys) {
          if (inFlight.get(k) === delivery) inFlight.delete(k);
          if (!ok) continue;
          taken.add(k);
          if (taken.size > max) taken.delete(taken.values().next().value as string);
        }
      };
      delivery.then(
        () => settle(true),
        () => settle(false),
      );
    },
  };
}
