// Keeps a conversation's replies in order across retries and stalls: reply n waits until reply n-1 has left.
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { ReplyOrder } from '../channel/types.ts';
import { loadRedisScript } from '../core/redis-script.ts';
import { replySentKey } from './conversation-inbox.ts';

const claimReplySlot = loadRedisScript(join(import.meta.dirname, 'lua', 'claim-reply-slot-1.lua'));
const markReplySent = loadRedisScript(join(import.meta.dirname, 'lua', 'mark-reply-sent-1.lua'));
const TTL_SECS = 30 * 24 * 60 * 60;

export type ReplySlot = 'send' | 'already_sent' | 'wait';

export interface ReplyOrderGate {
  claim(order: ReplyOrder): Promise<ReplySlot>;
  /** After sending (or giving up on) a reply, so the next one may leave. */
  markSent(order: ReplyOrder): Promise<void>;
}

export function createReplyOrderGate(redis: Redis, prefix: string): ReplyOrderGate {
  return {
    async claim(order) {
      const r = Number(await claimReplySlot(redis, [replySentKey(prefix, order.conversation)], [order.seq]));
      return r === 1 ? 'send' : r === 0 ? 'already_sent' : 'wait';
    },
    async markSent(order) {
      await markReplySent(redis, [replySentKey(prefix, order.conversation)], [order.seq, TTL_SECS]);
    },
  };
}
