// The turns queue producer: one "drain this conversation" job per conversation at a time (job id = digest).
// One BullMQ queue per partition (spec/config.md §15.1.1): a conversation's jobs always go to its partition's.

import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { allPartitions, type KeySpace } from '../core/key-layout.ts';
import { type RedisTarget, usesCluster } from '../core/redis-target.ts';
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
  /**
   * True when kicks go out on the caller's command connection (`client` given, not a Cluster): a kick issued
   * right after another command on that client then runs after it in Redis.
   */
  readonly ordered: boolean;
  close(): Promise<void>;
}

/**
 * `client`: the process's command connection, for the queues to share (BullMQ neither duplicates nor closes a
 * client it is given), so the gateway can send a kick right behind its ingest (idle-hints.ts). Not on a
 * Cluster: there BullMQ builds its own connections (connection.ts).
 */
export function createTurnQueue(redisTarget: RedisTarget, space: KeySpace, client?: Redis): TurnQueue {
  const shared = client !== undefined && !usesCluster(redisTarget) ? client : undefined;
  // Opened at start, as with one queue: a conversation's first kick waits for no connection.
  const queues = allPartitions(space).map((n) => {
    const prefix = turnsQueuePrefix(space, n);
    const queue = new Queue(
      TURNS_QUEUE,
      shared ? { connection: shared, prefix } : queueOptions(redisTarget, prefix),
    );
    queue.on('error', () => {}); // connection errors: ioredis reconnects; callers see failed adds
    return queue;
  });
  const queueOf = (n: number): Queue => queues[n] ?? (queues[0] as Queue);
  return {
    ordered: shared !== undefined,
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
