// Runs cron fires: each is one run_agent_job, its success posted to the job's chat once per fire.

import { type Job, Worker } from 'bullmq';
import type { OutboxWriter, Recipient } from '../channel-host/types.ts';
import { channelOf, cronJobOf } from '../config/lookup.ts';
import { errorMessage } from '../core/errors.ts';
import { newRunId } from '../core/ids.ts';
import type { RedisTarget } from '../core/redis-target.ts';
import { createFireClaims, type FireClaims } from '../cron/fire-claims.ts';
import { type CronJobRegistry, createCronJobRegistry } from '../cron/job-registry.ts';
import { cronOwnerOf, toolJobConfig } from '../cron/owners.ts';
import { DEFAULT_MAX_ATTACHMENT_MB, uploadLimitBytes } from '../media/attachment.ts';
import { currentConfig } from '../run-contract/live-services.ts';
import type { RuntimeServices } from '../run-contract/run-context.ts';
import { closeWorker } from './close-worker.ts';
import { workerOptions } from './connection.ts';
import { type FirePayload, fireDeliveryKey, firePayloadSchema, toolAtJobId } from './cron-fire.ts';
import { CRON_QUEUE } from './names.ts';
import { cronQueuePrefix } from './queue-prefixes.ts';
import { type AgentJob, runAgentJob } from './run-agent-job.ts';
import { createDeliveryFiles } from './turn-files.ts';

/** What the processor needs of a BullMQ job (tests drive it directly with the same shape). */
export interface FireJob {
  id: string;
  data: unknown;
  /** Failed attempts so far: 0 on the first attempt; a stalled redelivery keeps the same number. */
  attemptsMade: number;
  /** Total attempts allowed (scheduler_retries + 1). */
  attempts: number;
}

export type FireOutcome = 'delivered' | 'no_delivery' | 'redelivered' | 'already_claimed' | 'skipped';

export interface FireProcessorDeps {
  services: RuntimeServices;
  outbox: OutboxWriter;
  registry: CronJobRegistry;
  claims: FireClaims;
  /** `[redis] prefix`: where a run's send_file bytes are stored. */
  prefix: string;
  /** The platform's upload limit of a channel (its dialect's), for send_file; absent: none beyond the config's. */
  platformUploadBytes?: (channelKey: string) => number;
}

interface FireTarget {
  job: AgentJob;
  deliverTo: Recipient | null;
  /** A tool-created one-off job is forgotten once its `at` fire is settled. */
  oneOffToolJob: string | null;
}

async function resolveTarget(
  deps: FireProcessorDeps,
  payload: FirePayload,
  fireId: string,
): Promise<FireTarget | null> {
  const config = currentConfig(deps.services); // a reload may have added or changed the job
  if (payload.source === 'config') {
    const job = cronJobOf(config, payload.alias);
    const owner = cronOwnerOf(config, payload.alias);
    if (job?.job_type !== 'agent' || !job.enabled || !owner) return null;
    const d = job.delivery;
    return {
      job: { alias: payload.alias, config: job, ownerAgent: owner },
      deliverTo: d ? { channel: d.channel, chat: d.recipient } : null,
      oneOffToolJob: null,
    };
  }
  const record = await deps.registry.get(payload.id);
  if (!record) return null;
  return {
    job: { alias: record.id, config: toolJobConfig(record), ownerAgent: record.agent },
    deliverTo: record.delivery,
    oneOffToolJob: fireId === toolAtJobId(record.id) ? record.id : null,
  };
}

/**
 * One fire. A failed run throws (BullMQ retries it as a new attempt with a new run id). A redelivery of an
 * attempt that already started (a stalled job: BullMQ always re-queues stalled scheduler jobs) never runs the
 * agent again: it re-posts a stored success under the same idempotency key, or ends quietly.
 */
export function createFireProcessor(deps: FireProcessorDeps) {
  const { services, outbox, claims } = deps;
  const { logger } = services;
  return async (fire: FireJob, signal: AbortSignal): Promise<FireOutcome> => {
    const payload = firePayloadSchema.parse(fire.data);
    const target = await resolveTarget(deps, payload, fire.id);
    if (!target) {
      logger.warn({ fire_id: fire.id, ...payload }, 'cron fire for a job that no longer runs; skipped');
      return 'skipped';
    }
    const runId = newRunId();
    if (!(await claims.claim(fire.id, fire.attemptsMade, runId))) {
      const prior = await claims.result(fire.id);
      if (prior !== null && target.deliverTo) {
        await outbox.enqueue(target.deliverTo, { text: prior }, fireDeliveryKey(fire.id));
        return 'redelivered';
      }
      logger.warn(
        { fire_id: fire.id, attempt: fire.attemptsMade },
        'cron fire attempt already claimed; not run again',
      );
      return 'already_claimed';
    }
    const files = target.deliverTo ? deliveryFiles(deps, target.deliverTo) : undefined;
    const res = await runAgentJob(services, target.job, { signal, runId, ...(files ? { files } : {}) });
    const settled = res.ok || fire.attemptsMade + 1 >= fire.attempts;
    if (settled && target.oneOffToolJob) await deps.registry.remove(target.oneOffToolJob);
    if (!res.ok) throw new Error(res.error);
    await claims.saveResult(fire.id, res.output);
    if (!target.deliverTo) return 'no_delivery';
    await outbox.enqueue(
      target.deliverTo,
      { text: res.output },
      fireDeliveryKey(fire.id),
      undefined,
      files?.queued,
    );
    return 'delivered';
  };
}

export interface CronWorkerOptions {
  services: RuntimeServices;
  outbox: OutboxWriter;
  redisTarget: RedisTarget;
  prefix: string;
  concurrency: number;
  platformUploadBytes?: (channelKey: string) => number;
}

export interface CronWorker {
  /** Stops taking fires; running ones get `graceMs` (default: unbounded) before they are aborted. */
  close(graceMs?: number): Promise<void>;
}

export function startCronWorker(opts: CronWorkerOptions): CronWorker {
  const { services } = opts;
  const processFire = createFireProcessor({
    services,
    outbox: opts.outbox,
    registry: createCronJobRegistry(services.redis, opts.prefix, services.logger),
    claims: createFireClaims(services.redis, opts.prefix),
    prefix: opts.prefix,
    ...(opts.platformUploadBytes ? { platformUploadBytes: opts.platformUploadBytes } : {}),
  });
  const closing = new AbortController();
  const worker = new Worker<unknown, FireOutcome>(
    CRON_QUEUE,
    async (job: Job<unknown, FireOutcome>, _token?: string, signal?: AbortSignal) => {
      const signals = [closing.signal, ...(signal ? [signal] : [])];
      return processFire(
        {
          id: job.id ?? '',
          data: job.data,
          attemptsMade: job.attemptsMade,
          attempts: job.opts.attempts ?? 1,
        },
        AbortSignal.any(signals),
      );
    },
    workerOptions(opts.redisTarget, cronQueuePrefix(opts.prefix), opts.concurrency),
  );
  worker.on('failed', (job, err) =>
    services.logger.warn({ fire_id: job?.id, err: err.message }, 'cron fire failed'),
  );
  worker.on('error', (err) => services.logger.warn({ err: errorMessage(err) }, 'cron worker error'));
  return {
    async close(graceMs) {
      const closed = closeWorker(worker, (graceMs ?? 30_000) + 5000);
      const timer = graceMs === undefined ? undefined : setTimeout(() => closing.abort(), graceMs);
      await closed;
      clearTimeout(timer);
    },
  };
}

/** A delivering job's send_file files go to its delivery chat, within that channel's limits (media.md §2). */
function deliveryFiles(deps: FireProcessorDeps, to: Recipient) {
  const { services } = deps;
  const mb = channelOf(services.config, to.channel)?.max_attachment_mb ?? DEFAULT_MAX_ATTACHMENT_MB;
  const platform = deps.platformUploadBytes?.(to.channel) ?? Number.POSITIVE_INFINITY;
  return createDeliveryFiles(services.redis, deps.prefix, to, uploadLimitBytes(platform, mb));
}
