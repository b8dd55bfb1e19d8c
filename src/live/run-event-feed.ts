// Following a tree's run events as they are written (live.md §6): what is stored after the reader's last sequence
// number first, then each flush the writers announce. One pub/sub connection per process serves every follower;
// a follower reads one batch at a time, so it never sees an event twice or out of order.
import type { Redis } from 'ioredis';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { createRedis } from '../core/redis.ts';
import type { RunEvent } from '../run-contract/run-events.ts';
import { createRunEventLog, runEventKeys } from './run-event-log.ts';

export interface RunEventFeed {
  /** Delivers the tree's events after `afterSeq`, then new ones as they come; returns the stop function. */
  follow(treeRootId: string, afterSeq: number, deliver: (event: RunEvent) => void): Promise<() => void>;
  close(): Promise<void>;
}

export function createRunEventFeed(opts: {
  redis: Redis;
  redisUrl: string;
  prefix: string;
  logger: Pick<Logger, 'warn'>;
}): RunEventFeed {
  const log = createRunEventLog(opts.redis, opts.prefix, opts.logger);
  const channel = runEventKeys(opts.prefix).channel;
  const wakers = new Map<string, Set<() => void>>();
  let sub: Redis | null = null;
  let connecting: Promise<void> | null = null;

  const connect = (): Promise<void> => {
    connecting ??= (async () => {
      const s = createRedis(opts.redisUrl);
      s.on('error', (err: Error) => opts.logger.warn({ err: err.message }, 'run event subscriber error'));
      s.on('message', (_channel: string, message: string) => {
        for (const root of message.split('\n')) for (const wake of wakers.get(root) ?? []) wake();
      });
      await s.subscribe(channel);
      sub = s;
    })();
    return connecting;
  };

  return {
    async follow(root, afterSeq, deliver) {
      await connect();
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
      const set = wakers.get(root) ?? new Set<() => void>();
      set.add(readMore);
      wakers.set(root, set);
      // Subscribed before the first read: a flush between the two is read then, not lost.
      readMore();
      await reading;
      return () => {
        stopped = true;
        set.delete(readMore);
        if (set.size === 0) wakers.delete(root);
      };
    },
    async close() {
      wakers.clear();
      const s = sub;
      sub = null;
      connecting = null;
      if (s) await s.quit().catch(() => s.disconnect());
    },
  };
}
