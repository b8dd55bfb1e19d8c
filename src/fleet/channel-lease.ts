// Who holds a single-consumer channel (Telegram polling, the Discord gateway): a Redis lease per channel key.
// The lease *is* the channel's presence key (`<prefix>:presence:<key>`, value = holder id), so /healthz reads it
// as before. Taken with SET NX PX, renewed by compare-and-pexpire, released by compare-and-del: a holder that
// stops renewing (crash, long pause) loses it after ttlMs and a standby gateway takes over.
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { loadRedisScript } from '../core/redis-script.ts';

const renewScript = loadRedisScript(join(import.meta.dirname, 'lua', 'renew-lease-1.lua'));
const releaseScript = loadRedisScript(join(import.meta.dirname, 'lua', 'release-presence-1.lua'));

export interface LeaseTimings {
  /** Lease lifetime; a dead holder's channel is taken over at most this long (+ retryMs) after its last renewal. */
  ttlMs: number;
  /** How often the holder renews (well under ttlMs). */
  renewMs: number;
  /** How often a standby gateway tries to take the lease. */
  retryMs: number;
}

/** ttl 10 s + retry 2 s keeps takeover under 15 s; renewing every 3 s survives two missed renewals. */
export const DEFAULT_LEASE_TIMINGS: LeaseTimings = { ttlMs: 10_000, renewMs: 3_000, retryMs: 2_000 };

export interface LeaseCallbacks {
  /** The lease was taken: start consuming the channel. A throw releases the lease (standby again). */
  acquired(): Promise<void>;
  /** The lease was lost (another holder, or not renewable for ttlMs): stop consuming at once. */
  lost(): Promise<void>;
}

export interface LeaseHolder {
  /** Whether this gateway holds the lease now (and so consumes the channel). */
  holding(): boolean;
  /** Stops the loop; when holding, calls `lost` first. `release` false leaves the key to expire (a crash). */
  stop(release: boolean): Promise<void>;
}

export function leaseKey(prefix: string, channelKey: string): string {
  return `${prefix}:presence:${channelKey}`;
}

/**
 * Holds `channelKey` whenever it can: tries now (the returned promise settles after that first try), then on
 * every retryMs while standby and renews every renewMs while holding. Redis errors are logged, never thrown.
 */
export async function holdChannelLease(o: {
  redis: Redis;
  prefix: string;
  channelKey: string;
  holder: string;
  timings: LeaseTimings;
  logger: Logger;
  callbacks: LeaseCallbacks;
}): Promise<LeaseHolder> {
  const { redis, channelKey, holder, timings, logger, callbacks } = o;
  const key = leaseKey(o.prefix, channelKey);
  let held = false;
  let lastRenewed = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  const log = logger.child({ channel: channelKey, holder });

  async function drop(why: string): Promise<void> {
    held = false;
    log.warn({ why }, 'channel lease lost; stopping the channel and standing by');
    await callbacks
      .lost()
      .catch((err: unknown) => log.warn({ err: errorMessage(err) }, 'channel stop failed'));
  }

  async function tick(): Promise<void> {
    if (!held) {
      const ok = await redis.set(key, holder, 'PX', timings.ttlMs, 'NX').catch((err: unknown) => {
        log.warn({ err: errorMessage(err) }, 'channel lease acquire failed');
        return null;
      });
      if (ok !== 'OK' || stopped) return;
      held = true;
      lastRenewed = Date.now();
      log.info('channel lease acquired');
      try {
        await callbacks.acquired();
      } catch (err) {
        log.error({ err: errorMessage(err) }, 'channel start failed; releasing its lease');
        held = false;
        await callbacks.lost().catch(() => {});
        await releaseScript(redis, [key], [holder]).catch(() => {});
      }
      return;
    }
    try {
      if (Number(await renewScript(redis, [key], [holder, timings.ttlMs])) === 1) {
        lastRenewed = Date.now();
        return;
      }
      await drop('another gateway holds it');
    } catch (err) {
      // Unsure whether the key survived: past its ttl, someone else may hold it, so stop consuming.
      log.warn({ err: errorMessage(err) }, 'channel lease renewal failed');
      if (Date.now() - lastRenewed >= timings.ttlMs) await drop('not renewable within its ttl');
    }
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(
      () => {
        running = tick().finally(schedule);
      },
      held ? timings.renewMs : timings.retryMs,
    );
    timer.unref();
  }

  running = tick();
  await running;
  schedule();

  return {
    holding: () => held,
    async stop(release) {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      if (!held) return;
      held = false;
      await callbacks
        .lost()
        .catch((err: unknown) => log.warn({ err: errorMessage(err) }, 'channel stop failed'));
      if (release) await releaseScript(redis, [key], [holder]).catch(() => {});
    },
  };
}
