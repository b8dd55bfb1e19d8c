// A scheduler (and optionally a cron worker delivering into a recording outbox) on an agent harness.
import type { BatonConfig } from '../../../src/config/types.ts';
import { type CronScheduler, createCronScheduler } from '../../../src/queue/cron-scheduler.ts';
import { type CronWorker, startCronWorker } from '../../../src/queue/cron-worker.ts';
import type { AgentHarness } from '../../helpers/agent-harness.ts';
import { REDIS_URL } from '../../helpers/redis.ts';
import { createRecordingOutbox } from './recording-outbox.ts';

export function schedulerFor(h: AgentHarness, config: BatonConfig = h.services.config): CronScheduler {
  return createCronScheduler({
    config,
    redis: h.redis,
    redisTarget: { url: REDIS_URL },
    prefix: h.prefix,
    logger: h.services.logger,
  });
}

export interface CronFixture {
  scheduler: CronScheduler;
  worker: CronWorker | null;
  close(): Promise<void>;
}

/** Puts a real scheduler behind `services.cron` (so the cron_* tools exist); with `outboxKey`, also a worker. */
export function attachCron(h: AgentHarness, opts: { outboxKey?: string } = {}): CronFixture {
  const scheduler = schedulerFor(h);
  h.extend({ cron: scheduler });
  const worker = opts.outboxKey
    ? startCronWorker({
        services: h.services,
        outbox: createRecordingOutbox(h.redis, opts.outboxKey),
        redisTarget: { url: REDIS_URL },
        prefix: h.prefix,
        concurrency: 2,
      })
    : null;
  return {
    scheduler,
    worker,
    async close() {
      await worker?.close();
      await scheduler.close();
    },
  };
}
