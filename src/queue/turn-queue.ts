// The turns queue producer: one "drain this conversation" job per conversation at a time (job id = digest).
// One BullMQ queue per partition (spec/config.md §15.1.1): a conversation's jobs always go to its partition's.

import { Queue } from 'bullmq';
import { allPartitions, type KeySpace } from '../core/key-layout.ts';
import type { RedisTarget } from '../core/redis-target.ts';
import { queueOptions } from './connection.ts';
import { conversationJobId } from './conversation-inbox.ts';
import { partitionOfConversation, TURNS_QUEUE, turnsQueuePrefix } from './names.ts';

/** A drain job: the conversation, and the agent its first event is for (so the worker reads ahead). */
export interface DrainJobData {
  conversation: string;
  agent?: string;
}

export interface TurnQueue {
  /** Ensures a drain job exists for the conversation; a no-op while one is waiting or running. */
  kick(conversation: string, agent?: string): Promise<void>;
  close(): Promise<void>;
}

export function createTurnQueue(redisTarget: RedisTarget, space: KeySpace): TurnQueue {
  // Opened at start, as with one queue: a conversation's first kick waits for no connection.
  const queues = allPartitions(space).map((n) => {
    const queue = new Queue(TURNS_QUEUE, queueOptions(redisTarget, turnsQueuePrefix(space, n)));
    queue.on('error', () => {}); // connection errors: ioredis reconnects; callers see failed adds
    return queue;
  });
  const queueOf = (n: number): Queue => queues[n] ?? (queues[0] as Queue);
  return {
    async kick(conversation, agent) {
      const data: DrainJobData = agent ? { conversation, agent } : { conversation };
      await queueOf(partitionOfConversation(space, conversation)).add(
        'conversation',
        data,
        // Removed when done so the id is free for the next kick; the inbox, not the job, holds the messages.
        { jobId: conversationJobId(conversation), removeOnComplete: true, removeOnFail: true },
      );
    },
    async close() {
      await Promise.all(queues.map((q) => q.close()));
    },
  };
}
