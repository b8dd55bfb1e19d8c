// The turns queue producer: one "drain this conversation" job per conversation at a time (job id = digest).
// One BullMQ queue per partition (spec/config.md §15.1.1): a conversation's jobs always go to its partition's.

import { Queue, type QueueOptions } from 'bullmq';
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
   * The same kick on the caller's command connection (`client` given, not a Cluster), so that Redis runs it after
   * the command the caller sent just before it; null without such a client.
   */
  readonly kickBehind: ((conversation: string, agent?: string) => Promise<void>) | null;
  close(): Promise<void>;
}

/** One BullMQ queue per partition, with `options` (connection options: BullMQ opens its own; a client: shared). */
function partitionQueues(space: KeySpace, options: (prefix: string) => QueueOptions) {
  // Opened at start, as with one queue: a conversation's first kick waits for no connection.
  const queues = allPartitions(space).map((n) => {
    const queue = new Queue(TURNS_QUEUE, options(turnsQueuePrefix(space, n)));
    queue.on('error', () => {}); // connection errors: ioredis reconnects; callers see failed adds
    return queue;
  });
  return {
    queues,
    async kick(conversation: string, agent?: string) {
      const data: DrainJobData = agent ? { conversation, agent } : { conversation };
      const n = partitionOfConversation(space, conversation);
      await (queues[n] ?? (queues[0] as Queue)).add(
        'conversation',
        data,
        // Removed when done so the id is free for the next kick; the inbox, not the job, holds the messages.
        { jobId: conversationJobId(conversation), removeOnComplete: true, removeOnFail: true },
      );
    },
  };
}

/**
 * `client`: the process's command connection, for a second set of queues that share it (BullMQ neither
 * duplicates nor closes a client it is given): the gateway's early kick right behind its ingest
 * (idle-hints.ts). Other kicks keep connections of their own: on the command connection, a burst's kicks
 * measured slower (throughput lane, 3 alternating pairs: 41.0 against 46.6 % of raw). Not on a Cluster, where
 * BullMQ builds its own connections (connection.ts).
 */
export function createTurnQueue(redisTarget: RedisTarget, space: KeySpace, client?: Redis): TurnQueue {
  const own = partitionQueues(space, (prefix) => queueOptions(redisTarget, prefix));
  const shared =
    client !== undefined && !usesCluster(redisTarget)
      ? partitionQueues(space, (prefix) => ({ connection: client, prefix }))
      : null;
  return {
    kick: own.kick,
    kickBehind: shared ? shared.kick : null,
    async close() {
      await Promise.all([...own.queues, ...(shared?.queues ?? [])].map((q) => q.close()));
    },
  };
}
