// Handing an event to the host again when the hand-over itself failed (Redis down, a restart of it): platforms
// that do not resend (the Discord gateway; Slack's button presses) would otherwise lose it, and Slack Socket
// Mode's events get their ack only after it. The inbox dedupes by event id, so a hand-over that did land before
// the error is not taken twice.
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import type { ChannelHost, InboundEvent, ReceiveResult } from './types.ts';

/** About 30 s in all: long enough for Redis to fail over or restart, short enough that the user is not left waiting. */
export const RECEIVE_RETRY_DELAYS_MS: readonly number[] = [100, 250, 500, 1000, 2000, 4000, 8000, 15000];

export interface ReceiveRetryOptions {
  logger: Logger;
  /** Stops retrying (the adapter is stopping); the event is then logged as lost. */
  signal?: AbortSignal;
  delaysMs?: readonly number[];
}

/** The host's answer, or null when every attempt failed (logged with the event id, never thrown). */
export async function receiveWithRetry(
  host: ChannelHost,
  event: InboundEvent,
  opts: ReceiveRetryOptions,
): Promise<ReceiveResult | null> {
  const delays = opts.delaysMs ?? RECEIVE_RETRY_DELAYS_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      return await host.receive(event);
    } catch (err) {
      const delay = delays[attempt];
      const ids = { channel: event.channel, event_id: event.eventId, attempt: attempt + 1 };
      if (delay === undefined || opts.signal?.aborted) {
        opts.logger.error({ ...ids, err: errorMessage(err) }, 'inbound event could not be handed over; lost');
        return null;
      }
      opts.logger.warn(
        { ...ids, err: errorMessage(err), retry_in_ms: delay },
        'inbound event hand-over failed; retrying',
      );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        opts.signal?.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            resolve();
          },
          { once: true },
        );
      });
    }
  }
}
