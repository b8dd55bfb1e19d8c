// The turns queue producer: one "drain this conversation" job per conversation at a time (job id = digest).

import { Queue } from 'bullmq';
import type { RedisTarget } from '../core/redis-target.ts';
import { queueOptions } from './connection.ts';
import { conversationJobId } from './conversation-inbox.ts';
import { TURNS_QUEUE } from './names.ts';

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

export function createTurnQueue(redisTarget: RedisTarget, prefix: string): TurnQueue {
  const queue = new Queue(TURNS_QUEUE, queueOptions(redisTarget, prefix));
  queue.on('error', () => {}); // connection errors: ioredis reconnects; callers see failed adds
  return {
    async kick(conversation, agent) {
      const data: DrainJobData = agent ? { conversation, agent } : { conversation };
      await queue.add(
        'conversation',
        data,
        // Removed when done so the id is free for the next kick; the inbox, not the job, holds the messages.
        { jobId: conversationJobId(conversation), removeOnComplete: true, removeOnFail: true },
      );
    },
    close: () => queue.close(),
  };
}
