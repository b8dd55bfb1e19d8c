// The turns queue producer: one "drain this conversation" job per conversation at a time (job id = digest).
// One BullMQ queue per partition (spec/config.md §15.1.1): a conversation's jobs always go to its partition's.

import { Queue } from 'bullmq';
import type { KeySpace } from '../core/key-layout.ts';
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
  // Opened on first use: a process that kicks few conversations keeps few connections.
  const queues = new Map<number, Queue>();
  const queueOf = (n: number): Queue => {
    let queue = queues.get(n);
    if (!queue) {
      queue = new Queue(TURNS_QUEUE, queueOptions(redisTarget, turnsQueuePrefix(space, n)));
      queue.on('error', () => {}); // connection errors: ioredis reconnects; callers see failed adds
      queues.set(n, queue);
    }
    return queue;
  };
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
      await Promise.all([...queues.values()].map((q) => q.close()));
    },
  };
}
