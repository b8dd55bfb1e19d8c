// Runs one channel in a gateway: its adapter and its reply pump start and stop together. A platform that allows
// one consumer per bot token (Telegram polling, the Discord gateway) runs only while this gateway holds its
// lease; the others (Slack, Telegram in webhook mode, the local channel) always run, with a presence heartbeat.

import type { Redis } from 'ioredis';
import type { ChannelAdapter, ChannelHost } from '../channel-host/types.ts';
import type { Logger } from '../core/logger.ts';
import { holdChannelLease, type LeaseHolder, type LeaseTimings } from '../fleet/channel-lease.ts';
import type { ChannelPresence, PresenceHold } from '../fleet/channel-presence.ts';
import type { ReplyPump } from '../queue/reply-pump.ts';
import { dialectOf } from './platforms.ts';

export interface ChannelRunner {
  readonly key: string;
  /** The adapter is started here (it may send, show typing, receive). */
  active(): boolean;
  /** Stops the pump and the adapter; `release` false (a crash): the lease is left to expire. */
  close(release: boolean): Promise<void>;
}

export interface ChannelRunnerOptions {
  adapter: ChannelAdapter;
  host: ChannelHost;
  startPump(adapter: ChannelAdapter): ReplyPump;
  redis: Redis;
  prefix: string;
  presence: ChannelPresence;
  holder: string;
  timings: LeaseTimings;
  logger: Logger;
}

export async function startChannelRunner(o: ChannelRunnerOptions): Promise<ChannelRunner> {
  const { adapter } = o;
  let pump: ReplyPump | null = null;
  let started = false;
  const up = async () => {
    await adapter.start(o.host);
    started = true;
    pump = o.startPump(adapter);
  };
  // Sends under way finish while the adapter can still send; what is left stays queued for the next holder.
  const down = async () => {
    const p = pump;
    pump = null;
    await p?.close();
    if (started) await adapter.stop();
    started = false;
  };

  if (!(adapter.singleConsumer ?? dialectOf(adapter.key).singleConsumer)) {
    await up();
    const hold: PresenceHold = await o.presence.hold(adapter.key, o.holder);
    return {
      key: adapter.key,
      active: () => started,
      async close(_release) {
        await down();
        await hold.release(); // a heartbeat, not a lock: nobody waits for it to expire
      },
    };
  }

  const lease: LeaseHolder = await holdChannelLease({
    redis: o.redis,
    prefix: o.prefix,
    channelKey: adapter.key,
    holder: o.holder,
    timings: o.timings,
    logger: o.logger,
    callbacks: { acquired: up, lost: down },
  });
  return {
    key: adapter.key,
    active: () => started && lease.holding(),
    close: (release) => lease.stop(release),
  };
}
