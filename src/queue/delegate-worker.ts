// The BullMQ worker of the `delegate` queue: runs background delegations, aborts them on cancel or shutdown.

import { Worker } from 'bullmq';
import { executeRun } from '../agent/execute-run.ts';
import { errorMessage } from '../core/errors.ts';
import type { RedisTarget } from '../core/redis-target.ts';
import { delegateJobPayloadSchema } from '../delegation/delegation-services.ts';
import { currentConfig, turnServices } from '../run-contract/live-services.ts';
import type { RuntimeServices } from '../run-contract/run-context.ts';
import { WORKER_SHUTDOWN } from '../tools/delegate/delegate-messages.ts';
import { runBackgroundTask } from '../tools/delegate/run-background.ts';
import { sendBackgroundNotice } from './background-notice.ts';
import { closeWorker } from './close-worker.ts';
import { queueConnection } from './connection.ts';
import type { DelegationHandle } from './delegate-queue.ts';
import { DELEGATE_QUEUE, keySpaceOf } from './names.ts';
import { delegateQueuePrefix } from './queue-prefixes.ts';

export interface DelegateWorkerOptions {
  /** The process's services; their `delegation` is the queue client the tools enqueue with. */
  services: RuntimeServices;
  /** The queue client (createDelegationServices) also given to `services`; whoever created it closes it. */
  delegation: DelegationHandle;
  redisTarget: RedisTarget;
  /** `[redis] prefix`. */
  prefix: string;
  /** `[worker] background_concurrency`. */
  concurrency: number;
  /** Running jobs get this long to finish on close before they are aborted (delegate.md §11.5). */
  shutdownGraceMs?: number;
  /** Heartbeat period (30 s in production; tests shorten it). */
  heartbeatMs?: number;
}

export interface DelegateWorker {
  readonly delegation: DelegationHandle;
  close(): Promise<void>;
}

export function createDelegateWorker(opts: DelegateWorkerOptions): DelegateWorker {
  const { services, delegation } = opts;
  /** live.md §4: the chat that started the task hears that it ended (never fails the job). */
  const announce = async (jobServices: RuntimeServices, taskId: string): Promise<void> => {
    try {
      const rec = await jobServices.tasks.get(taskId);
      if (!rec) return;
      await sendBackgroundNotice(
        {
          redis: jobServices.redis,
          space: keySpaceOf(currentConfig(jobServices).redis),
          config: currentConfig(jobServices),
          redact: jobServices.redact,
        },
        rec,
      );
    } catch (err) {
      jobServices.logger.warn({ task_id: taskId, err: errorMessage(err) }, 'background notice not sent');
    }
  };
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  const worker = new Worker(
    DELEGATE_QUEUE,
    async (job) => {
      const payload = delegateJobPayloadSchema.parse(job.data);
      const controller = new AbortController();
      const unregister = delegation.abortBus.register('task', payload.task_id, controller);
      const jobServices = turnServices(services); // the job's config: the one current when it starts
      const done = runBackgroundTask(
        jobServices,
        payload,
        controller.signal,
        { buildToolSet: services.buildToolSet, executeRun },
        opts.heartbeatMs,
      );
      running.set(payload.task_id, { controller, done: done.then(() => {}).catch(() => {}) });
      try {
        if (await done) await announce(jobServices, payload.task_id);
      } finally {
        unregister();
        running.delete(payload.task_id);
      }
    },
    // A stalled job is failed, never re-run: the reaper reports its record lost (delegate.md §11.2).
    {
      connection: queueConnection(opts.redisTarget),
      prefix: delegateQueuePrefix(opts.prefix),
      concurrency: opts.concurrency,
      maxStalledCount: 0,
    },
  );
  worker.on('failed', (job, err) =>
    services.logger.warn({ task_id: job?.id, err: errorMessage(err) }, 'background delegation job failed'),
  );
  worker.on('error', (err) => services.logger.warn({ err: errorMessage(err) }, 'delegate worker error'));
  return {
    delegation,
    async close() {
      const grace = opts.shutdownGraceMs ?? 30_000;
      const pending = [...running.values()];
      await worker.pause(true).catch(() => {});
      const allDone = Promise.all(pending.map((r) => r.done));
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), grace);
      });
      if ((await Promise.race([allDone, timedOut])) === 'timeout') {
        for (const r of running.values()) r.controller.abort(new Error(WORKER_SHUTDOWN));
        await allDone;
      }
      clearTimeout(timer);
      await closeWorker(worker);
    },
  };
}

/** Starts a delegate worker; the same as createDelegateWorker (BullMQ workers start on construction). */
export const startDelegateWorker = createDelegateWorker;
