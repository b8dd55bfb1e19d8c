// Worker → gateway for approval cards: a request on the channel's outbox stream, which only the gateway holding
// the channel reads (lease/presence), with the stream's takeover when that gateway dies. It carries no text and no
// conversation order, so a card never waits behind (or holds up) the replies of the turn that is blocked on it.
import type { Redis } from 'ioredis';
import type { ApprovalDelivery } from '../approval/channel-asker.ts';
import type { Recipient } from '../channel/types.ts';
import { outboxStreamKey } from './names.ts';

export function createApprovalDelivery(redis: Redis, prefix: string): ApprovalDelivery {
  const request = async (op: 'post' | 'edit', channel: string, approvalId: string, to: Recipient) => {
    await redis.xadd(
      outboxStreamKey(prefix, channel),
      '*',
      'to',
      JSON.stringify(to),
      'text',
      '',
      'conv',
      '',
      'seq',
      '',
      'approval',
      JSON.stringify({ op, approvalId }),
    );
  };
  return {
    post: (channel, id, to) => request('post', channel, id, to),
    edit: (channel, id, to) => request('edit', channel, id, to),
  };
}
