// The turns queue producer: one "drain this conversation" job per conversation at a time (job id = digest).
import { Queue } from 'bullmq';
import { queueOptions } from './connection.ts';
import { conversationJobId } from './conversation-inbox.ts';
import { TURNS_QUEUE } from './names.ts';

export interface TurnQueue {
  /** Ensures a drain job exists for the conversation; a no-op while one is waiting or running. */
  kick(conversation: string): Promise<void>;
  close(): Promise<void>;
}

export function createTurnQueue(redisUrl: string, prefix: string): TurnQueue {
  const queue = new Queue(TURNS_QUEUE, queueOptions(redisUrl, prefix));
  queue.on('error', () => {}); // connection errors: ioredis reconnects; callers see failed adds
  return {
    async kick(conversation) {
      await queue.add(
        'conversation',
        { conversation },
        // Removed when done so the id is free for the next kick; the inbox, not the job, holds the messages.
        { jobId: conversationJobId(conversation), removeOnComplete: true, removeOnFail: true },
      );
    },
    close: () => queue.close(),
  };
}
