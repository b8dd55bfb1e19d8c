// Keeps a conversation's replies in order across retries and stalls: reply n waits until reply n-1 has left.
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { ReplyOrder } from '../channel/types.ts';
import { loadRedisScript } from '../core/redis-script.ts';
import { replySentKey } from './conversation-inbox.ts';

const claimReplySlot = loadRedisScript(join(import.meta.dirname, 'lua', 'claim-reply-slot-1.lua'));

export type ReplySlot = 'send' | 'already_sent' | 'wait';

export interface ReplyOrderGate {
  /** The mark moves when the reply is acknowledged (outbox-stream.ts), so the next one may leave. */
  claim(order: ReplyOrder): Promise<ReplySlot>;
}

export function createReplyOrderGate(redis: Redis, prefix: string): ReplyOrderGate {
  return {
    async claim(order) {
      const r = Number(await claimReplySlot(redis, [replySentKey(prefix, order.conversation)], [order.seq]));
      return r === 1 ? 'send' : r === 0 ? 'already_sent' : 'wait';
    },
  };
}
