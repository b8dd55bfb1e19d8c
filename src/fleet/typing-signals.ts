// "The bot is working" across processes: workers publish while a turn runs, the gateway holding the channel
// shows the platform's typing indicator. Lossy by design (pub/sub): a missed signal only hides the indicator.
import type { Redis } from 'ioredis';
import { type Recipient, recipientSchema } from '../channel-host/types.ts';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';

/** Turns that answer within this never show an indicator (no platform call for a fast reply). */
export const TYPING_FIRST_AFTER_MS = 500;
/** Platforms show typing for about 5 s (Telegram) to 10 s (Discord): repeat before it fades. */
export const TYPING_REPEAT_MS = 4000;

const channelOf = (prefix: string) => `${prefix}:typing`;

export interface TypingSignals {
  /** Signals `to` after TYPING_FIRST_AFTER_MS, then every TYPING_REPEAT_MS, until the returned stop is called. */
  whileRunning(to: Recipient): () => void;
}

export function createTypingSignals(redis: Redis, prefix: string, logger: Logger): TypingSignals {
  const channel = channelOf(prefix);
  const raw = (to: Recipient) => JSON.stringify(to);
  const publish = (payload: string) => {
    redis.publish(channel, payload).catch((err: unknown) => {
      logger.debug({ err: errorMessage(err) }, 'typing signal not published');
    });
  };
  return {
    whileRunning(to) {
      const payload = raw(to);
      let repeat: NodeJS.Timeout | undefined;
      const first = setTimeout(() => {
        publish(payload);
        repeat = setInterval(() => publish(payload), TYPING_REPEAT_MS);
        repeat.unref();
      }, TYPING_FIRST_AFTER_MS);
      first.unref();
      return () => {
        clearTimeout(first);
        if (repeat) clearInterval(repeat);
      };
    },
  };
}

/**
 * Calls `onTyping` for each valid signal. `subscriber` must be a dedicated connection. A malformed message is
 * logged and skipped; a failing `onTyping` is logged, never thrown.
 */
export async function subscribeTyping(
  subscriber: Redis,
  prefix: string,
  logger: Logger,
  onTyping: (to: Recipient) => Promise<void>,
): Promise<() => Promise<void>> {
  const channel = channelOf(prefix);
  const listener = (ch: string, message: string) => {
    if (ch !== channel) return;
    let to: Recipient;
    try {
      to = recipientSchema.parse(JSON.parse(message));
    } catch (err) {
      logger.warn(
        { err: errorMessage(err), sample: message.slice(0, 200) },
        'malformed typing signal skipped',
      );
      return;
    }
    onTyping(to).catch((err: unknown) => {
      logger.debug({ err: errorMessage(err), channel: to.channel }, 'typing indicator not shown');
    });
  };
  subscriber.on('message', listener);
  await subscriber.subscribe(channel);
  return async () => {
    subscriber.off('message', listener);
    await subscriber.unsubscribe(channel).catch(() => {});
  };
}
