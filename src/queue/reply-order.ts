// Keeps a conversation's replies in order across retries and stalls: reply n waits until reply n-1 has left.
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { ReplyOrder } from '../channel-host/types.ts';
import type { KeySpace } from '../core/key-layout.ts';
import type { Logger } from '../core/logger.ts';
import { loadRedisScript } from '../core/redis-script.ts';
import { replySentKey } from './names.ts';

const claimReplySlot = loadRedisScript(join(import.meta.dirname, 'lua', 'claim-reply-slot-1.lua'));

export type ReplySlot = 'send' | 'already_sent' | 'wait';

export interface ReplyOrderGate {
  /** The mark moves when the reply is acknowledged (outbox-stream.ts), so the next one may leave. */
  claim(order: ReplyOrder): Promise<ReplySlot>;
}

export function createReplyOrderGate(
  redis: Redis,
  space: KeySpace,
  logger: Pick<Logger, 'warn'>,
): ReplyOrderGate {
  return {
    async claim(order) {
      const key = replySentKey(space, order.conversation);
      const r = await claimReplySlot(redis, [key], [order.seq]);
      if (r === 2) logger.warn({ key, seq: order.seq }, 'unreadable last-sent mark; the reply is sent now');
      return r === 1 || r === 2 ? 'send' : r === 0 ? 'already_sent' : 'wait';
    },
  };
}
