// The background-delegation queue client: enqueue, job state, removal, cross-process cancel and settle events.

import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { createRedis } from '../core/redis.ts';
import type { RedisTarget } from '../core/redis-target.ts';
import { createDelegateTasks } from '../delegation/delegate-tasks.ts';
import type { DelegateJobState, DelegationServices } from '../delegation/delegation-services.ts';
import { type AbortBus, createAbortBus } from '../fleet/abort-bus.ts';
import { CANCELLED_BY_USER } from '../tools/delegate/delegate-messages.ts';
import { queueConnection } from './connection.ts';
import { DELEGATE_QUEUE } from './names.ts';
import { delegateQueuePrefix } from './queue-prefixes.ts';

/** Finished jobs are only bookkeeping: the task record is the status of record (delegate.md §11.3). */
const KEEP_FINISHED = { age: 24 * 60 * 60, count: 1000 };

export interface DelegationHandle extends DelegationServices {
  /** Cross-process aborts ('task' kind) for the workers of this process. */
  readonly abortBus: AbortBus;
  close(): Promise<void>;
}

export interface DelegationOptions {
  redisTarget: RedisTarget;
  prefix: string;
  logger: Logger;
}

export function createDelegationServices(opts: DelegationOptions): DelegationHandle {
  const queue = new Queue(DELEGATE_QUEUE, {
    connection: queueConnection(opts.redisTarget),
    prefix: delegateQueuePrefix(opts.prefix),
  });
  // Without a listener BullMQ prints each connection error (e.g. through a Sentinel failover) to stderr.
  queue.on('error', (err) => opts.logger.warn({ err: err.message }, 'delegate queue error'));
  const publisher: Redis = createRedis(opts.redisTarget);
  const subscriber: Redis = createRedis(opts.redisTarget);
  for (const r of [publisher, subscriber]) r.on('error', () => {}); // ioredis reconnects on its own
  const abortBus = createAbortBus(publisher, subscriber, opts.prefix, opts.logger);
  const settledChannel = createDelegateTasks(publisher, opts.prefix).settledChannel;
  const listeners = new Set<(taskId: string) => void>();
  // Nobody awaits it: a subscribe the connection's end cuts short is logged, never an unhandled rejection.
  subscriber.subscribe(settledChannel).catch((err: unknown) => {
    opts.logger.debug(
      { err: errorMessage(err), channel: settledChannel },
      'delegate settled subscribe ended',
    );
  });
  subscriber.on('message', (channel: string, taskId: string) => {
    if (channel !== settledChannel) return;
    for (const l of listeners) l(taskId);
  });
  return {
    abortBus,
    async enqueue(payload) {
      // attempts: 1: a job whose worker died is reported lost by the reaper, never run twice (§11.2).
      await queue.add('delegate', payload, {
        jobId: payload.task_id,
        attempts: 1,
        removeOnComplete: KEEP_FINISHED,
        removeOnFail: KEEP_FINISHED,
      });
    },
    async jobState(taskId) {
      const state = await queue.getJobState(taskId);
      if (state === 'prioritized' || state === 'waiting-children') return 'waiting';
      const known: DelegateJobState[] = ['waiting', 'delayed', 'active', 'completed', 'failed'];
      return (known as string[]).includes(state) ? (state as DelegateJobState) : 'unknown';
    },
    async removeWaiting(taskId) {
      const job = await queue.getJob(taskId);
      if (!job) return false;
      const state = await job.getState();
      if (state !== 'waiting' && state !== 'delayed' && state !== 'prioritized') return false;
      await job.remove().catch(() => {}); // a worker may have just taken it; the abort reaches it instead
      return true;
    },
    async publishCancel(taskId) {
      await abortBus.publish('task', taskId, CANCELLED_BY_USER);
    },
    onSettled(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      await abortBus.close();
      await queue.close();
      await Promise.all([publisher.quit().catch(() => {}), subscriber.quit().catch(() => {})]);
    },
  };
}
