// Worker → gateway for approval cards: a request on the channel's outbox stream, which only the gateway holding
// the channel reads (lease/presence), with the stream's takeover when that gateway dies. It carries no text and no
// conversation order, so a card never waits behind (or holds up) the replies of the turn that is blocked on it.
import type { Redis } from 'ioredis';
import type { ApprovalDelivery } from '../approval/card-delivery.ts';
import type { Recipient } from '../channel-host/types.ts';
import type { KeySpace } from '../core/key-layout.ts';
import { enqueueOutboxEntry } from './reply-outbox.ts';

export function createApprovalDelivery(redis: Redis, space: KeySpace): ApprovalDelivery {
  const request = (op: 'post' | 'edit', approvalId: string, to: Recipient) =>
    enqueueOutboxEntry(redis, space, { to, approval: { op, approvalId } });
  return {
    post: (_channel, id, to) => request('post', id, to),
    edit: (_channel, id, to) => request('edit', id, to),
  };
}
