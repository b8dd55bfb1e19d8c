// The keeping side of a channel's reply pump: every tick it touches the entries this gateway is still working on
// (so nobody reclaims them), takes over entries a crashed gateway left unacknowledged, and now and then forgets
// consumers of stopped gateways.
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import type { OutboxEntry } from './outbox-entry.ts';
import type { OutboxStream } from './outbox-stream.ts';

export interface KeeperTimings {
  keepAliveMs: number;
  minIdleMs: number;
  pruneEveryMs: number;
  pruneIdleMs: number;
}

export interface OutboxKeeperOptions {
  stream: Pick<OutboxStream, 'touch' | 'reclaim' | 'pruneConsumers'>;
  channel: string;
  logger: Pick<Logger, 'warn'>;
  timings: KeeperTimings;
  /** Entries read and not yet settled. */
  inFlight: () => ReadonlySet<string>;
  /** How many more entries the pump takes now. */
  room: () => number;
  /** Hands a reclaimed entry to the pump. */
  dispatch: (entry: OutboxEntry) => void;
}

/** Starts ticking; the returned function stops it. */
export function startOutboxKeeper(opts: OutboxKeeperOptions): () => void {
  const { stream, timings: t } = opts;
  let lastPrune = 0;
  async function tick(): Promise<void> {
    await stream.touch([...opts.inFlight()]);
    const room = opts.room();
    if (room > 0) for (const entry of await stream.reclaim(t.minIdleMs, room)) opts.dispatch(entry);
    // Every gateway start adds a consumer name; the ones of stopped gateways go once they hold nothing.
    if (Date.now() - lastPrune > t.pruneEveryMs) {
      lastPrune = Date.now();
      await stream.pruneConsumers(t.pruneIdleMs);
    }
  }
  let ticking = false; // during a Redis outage a tick waits; later ticks must not pile up behind it
  const timer = setInterval(() => {
    if (ticking) return;
    ticking = true;
    tick()
      .catch((err: unknown) =>
        opts.logger.warn({ channel: opts.channel, err: errorMessage(err) }, 'outbox reclaim failed'),
      )
      .finally(() => {
        ticking = false;
      });
  }, t.keepAliveMs);
  timer.unref();
  return () => clearInterval(timer);
}
