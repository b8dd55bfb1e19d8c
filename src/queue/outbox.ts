// The outbox producer: replies go to the sending channel's queue, with an idempotent job id per reply.
import { createHash } from 'node:crypto';
import { Queue } from 'bullmq';
import type { OutboundMessage, OutboxWriter, Recipient, ReplyOrder } from '../channel/types.ts';
import { queueOptions } from './connection.ts';
import { outboxQueueName } from './names.ts';

export interface OutboxJob {
  to: Recipient;
  text: string;
  order?: ReplyOrder;
}

/** Kept this long after sending, so a redelivered turn that replies again is recognised and dropped. */
const KEEP_SENT_SECS = 24 * 60 * 60;

export function outboxJobId(idempotencyKey: string): string {
  return `out-${createHash('sha1').update(idempotencyKey).digest('hex')}`;
}

export interface OutboxProducer extends OutboxWriter {
  close(): Promise<void>;
}

export function createOutboxProducer(redisUrl: string, prefix: string): OutboxProducer {
  const queues = new Map<string, Queue<OutboxJob>>();
  const queueFor = (channel: string) => {
    let q = queues.get(channel);
    if (!q) {
      q = new Queue<OutboxJob>(outboxQueueName(channel), queueOptions(redisUrl, prefix));
      q.on('error', () => {});
      queues.set(channel, q);
    }
    return q;
  };
  return {
    async enqueue(to: Recipient, msg: OutboundMessage, idempotencyKey: string, order?: ReplyOrder) {
      await queueFor(to.channel).add(
        'send',
        { to, text: msg.text, ...(order ? { order } : {}) },
        {
          jobId: outboxJobId(idempotencyKey),
          attempts: 8,
          backoff: { type: 'exponential', delay: 1000 },
          removeOnComplete: { age: KEEP_SENT_SECS },
          removeOnFail: { age: 7 * KEEP_SENT_SECS },
        },
      );
    },
    async close() {
      await Promise.all([...queues.values()].map((q) => q.close()));
    },
  };
}
