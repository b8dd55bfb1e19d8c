// "The fake chat": an OutboxWriter that appends every delivery to a Redis list, readable from any process.
import type { Redis } from 'ioredis';
import type { OutboxWriter, Recipient } from '../../../src/channel-host/types.ts';

export interface RecordedDelivery {
  to: Recipient;
  text: string;
  key: string;
  pid: number;
}

export function createRecordingOutbox(redis: Redis, listKey: string): OutboxWriter {
  return {
    async enqueue(to, msg, idempotencyKey) {
      const entry: RecordedDelivery = { to, text: msg.text, key: idempotencyKey, pid: process.pid };
      await redis.rpush(listKey, JSON.stringify(entry));
    },
  };
}

export async function readDeliveries(redis: Redis, listKey: string): Promise<RecordedDelivery[]> {
  return (await redis.lrange(listKey, 0, -1)).map((raw) => JSON.parse(raw) as RecordedDelivery);
}
