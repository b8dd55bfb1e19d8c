// The worker's side of a turn's live messages: each show goes to the channel's outbox as a live op, numbered,
// and only once the previous op was handled (a slow chat skips edits instead of queueing them up).
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { Recipient } from '../channel-host/types.ts';
import { loadRedisScript } from '../core/redis-script.ts';
import { liveKeys, outboxStreamKey } from './names.ts';
import { type LiveSlot, outboxEntryArgs } from './outbox-entry.ts';

const enqueueLiveOp = loadRedisScript(join(import.meta.dirname, 'lua', 'enqueue-live-op-2.lua'));

export interface LiveShows {
  /** Queues a show of `slot` with `text`; false when skipped (the previous show has not left yet). */
  show(slot: LiveSlot, text: string, last: boolean): Promise<boolean>;
}

export function createLiveShows(
  redis: Redis,
  prefix: string,
  to: Recipient,
  root: string,
  redact: (text: string) => string,
  gapMs: number,
): LiveShows {
  let n = 0;
  return {
    async show(slot, text, last) {
      const live = { root, slot, n: n + 1, last, gap: gapMs };
      const entry = outboxEntryArgs({ to, text: redact(text), live });
      const keys = [liveKeys(prefix, root).state, outboxStreamKey(prefix, to.channel)];
      const queued = (await enqueueLiveOp(redis, keys, [live.n, last ? '1' : '0', ...entry])) === 1;
      if (queued) n = live.n;
      return queued;
    },
  };
}
