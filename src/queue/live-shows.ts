// The worker's side of a turn's live messages: each show goes to the channel's outbox as a live op, numbered,
// and only once the previous op was handled (a slow chat skips edits instead of queueing them up).
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { Recipient } from '../channel-host/types.ts';
import type { KeySpace } from '../core/key-layout.ts';
import { loadRedisScript } from '../core/redis-script.ts';
import { LIVE_STATE_TTL_SECS } from './live-slots.ts';
import { liveKeys, liveTurnKey, outboxStreamKey, recipientConversation } from './names.ts';
import { type LiveSlot, outboxEntryArgs } from './outbox-entry.ts';

const enqueueLiveOp = loadRedisScript(join(import.meta.dirname, 'lua', 'enqueue-live-op-3.lua'));

export interface LiveShows {
  /** Queues a show of `slot` with `text`; false when skipped (the previous show has not left yet). */
  show(slot: LiveSlot, text: string, last: boolean): Promise<boolean>;
}

export interface LiveShowsOptions {
  redis: Redis;
  space: KeySpace;
  to: Recipient;
  /** The turn, whose answer finds this run's messages through it (a turn handed back runs again). */
  turnId: string;
  /** The root run whose messages these are. */
  root: string;
  redact: (text: string) => string;
  /** The chat's `stream_edit_interval_ms`. */
  gapMs: number;
}

export function createLiveShows(opts: LiveShowsOptions): LiveShows {
  const { redis, space, to, turnId, root, redact, gapMs } = opts;
  // The turn's conversation: the gateway finds the live state from the op's recipient the same way.
  const conversation = recipientConversation(to);
  let n = 0;
  return {
    async show(slot, text, last) {
      const live = { root, slot, n: n + 1, last, gap: gapMs };
      const entry = outboxEntryArgs({ to, text: redact(text), live });
      const keys = [
        liveKeys(space, conversation, root).state,
        outboxStreamKey(space, to.channel, conversation),
        liveTurnKey(space, conversation, turnId),
      ];
      const args = [live.n, last ? '1' : '0', root, LIVE_STATE_TTL_SECS, ...entry];
      const queued = (await enqueueLiveOp(redis, keys, args)) === 1;
      if (queued) n = live.n;
      return queued;
    },
  };
}
