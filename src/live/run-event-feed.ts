// Following a tree's run events as they are written (live.md §6): what is stored after the reader's last sequence
// number first, then each flush the writers announce; and the sessions whose new turns a flush filed. The
// gateway's one live subscriber serves every follower; a follower reads one batch at a time, so it never sees an
// event twice or out of order.
import type { Redis } from 'ioredis';
import { errorMessage } from '../core/errors.ts';
import type { KeySpace } from '../core/key-layout.ts';
import type { Logger } from '../core/logger.ts';
import type { RunEvent } from '../run-contract/run-events.ts';
import type { LiveSubscriber } from './live-subscriber.ts';
import { createRunEventLog, runEventChannels } from './run-event-log.ts';
import { sessionsWithNewTurns } from './session-turns.ts';

export interface RunEventFeed {
  /** Delivers the tree's events after `afterSeq`, then new ones as they come; returns the stop function. */
  follow(treeRootId: string, afterSeq: number, deliver: (event: RunEvent) => void): Promise<() => void>;
  /** Calls `wake` whenever a flush files a new turn of `session` (live from the moment this resolves). */
  onNewTurn(session: string, wake: () => void): Promise<() => void>;
}

/** Wakers by key, fed by one listener on one channel that names its keys. */
function wakerTable(subscriber: LiveSubscriber, channel: string, keysOf: (message: string) => string[]) {
  const wakers = new Map<string, Set<() => void>>();
  let listening: Promise<unknown> | null = null;
  return async (key: string, wake: () => void): Promise<() => void> => {
    const set = wakers.get(key) ?? new Set<() => void>();
    set.add(wake);
    wakers.set(key, set);
    if (!listening) {
      listening = subscriber.listen(channel, (m) => {
        for (const k of keysOf(m)) for (const w of wakers.get(k) ?? []) w();
      });
      // A failed subscribe is tried again by the next follower (this one is told by the throw below).
      listening.catch(() => {
        listening = null;
      });
    }
    try {
      await listening;
    } catch (err) {
      set.delete(wake);
      throw err;
    }
    return () => {
      set.delete(wake);
      if (set.size === 0 && wakers.get(key) === set) wakers.delete(key);
    };
  };
}

export function createRunEventFeed(opts: {
  redis: Redis;
  subscriber: LiveSubscriber;
  space: KeySpace;
  logger: Pick<Logger, 'warn'>;
}): RunEventFeed {
  const log = createRunEventLog(opts.redis, opts.space, opts.logger);
  const keys = runEventChannels(opts.space.prefix);
  const onFlush = wakerTable(opts.subscriber, keys.channel, (m) => m.split('\n'));
  const onNewTurn = wakerTable(opts.subscriber, keys.turnsChannel, (m) =>
    sessionsWithNewTurns(m, keys.turnsChannel, opts.logger),
  );

  return {
    async follow(root, afterSeq, deliver) {
      let last = afterSeq;
      let entry = '-';
      let reading: Promise<void> = Promise.resolve();
      let stopped = false;
      const readMore = () => {
        reading = reading.then(async () => {
          if (stopped) return;
          try {
            const batch = await log.readFrom(root, last, entry);
            entry = batch.lastEntry;
            for (const e of batch.events) {
              if (stopped || e.seq <= last) continue;
              last = e.seq;
              deliver(e);
            }
          } catch (err) {
            opts.logger.warn({ root_run_id: root, err: errorMessage(err) }, 'run event feed read failed');
          }
        });
      };
      // Subscribed before the first read: a flush between the two is read then, not lost.
      const stop = await onFlush(root, readMore);
      readMore();
      await reading;
      return () => {
        stopped = true;
        stop();
      };
    },
    onNewTurn,
  };
}
