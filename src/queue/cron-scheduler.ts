// Cron schedules as BullMQ job schedulers: config sync, and the CronControl the cron_* tools act through.

import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { BatonConfig, CronSchedule } from '../config/types.ts';
import type { Logger } from '../core/logger.ts';
import type { RedisTarget } from '../core/redis-target.ts';
import type { CronJobRegistry } from '../cron/job-registry.ts';
import { createCronJobRegistry } from '../cron/job-registry.ts';
import { type DeclaredCronJob, declaredAgentJobs } from '../cron/owners.ts';
import { checkSchedule } from '../cron/schedule.ts';
import type { CronControl, CronListEntry, ToolCronJob } from '../cron/types.ts';
import { queueOptions } from './connection.ts';
import {
  CONFIG_SCHEDULER_PREFIX,
  configAtJobId,
  configSchedulerId,
  cronExpressionError,
  FIRE_JOB_NAME,
  type FirePayload,
  fireRetryOptions,
  manualJobId,
  toolAtJobId,
  toolSchedulerId,
} from './cron-fire.ts';
import { CRON_QUEUE } from './names.ts';
import { cronQueuePrefix } from './queue-prefixes.ts';

export interface CronSchedulerOptions {
  config: BatonConfig;
  /** The config in effect now (a reload changes [cron.*]; the next sync applies it); default: `config`. */
  currentConfig?: () => BatonConfig;
  /** Control-plane connection (the tool-job registry). */
  redis: Redis;
  redisTarget: RedisTarget;
  prefix: string;
  logger: Logger;
}

export interface CronSyncReport {
  scheduled: string[];
  unchanged: string[];
  removed: string[];
  /** One-off `at` jobs already in the past: they do not run (config.md §14). */
  skippedPast: string[];
}

export interface CronScheduler extends CronControl {
  /** Makes Redis match the config: declared agent jobs scheduled, undeclared config schedules removed. */
  sync(): Promise<CronSyncReport>;
  /** What Redis holds: scheduler ids and pending one-off (`at`) fire ids, sorted (health views, tests). */
  inspect(): Promise<{ schedulers: string[]; oneOff: string[] }>;
  close(): Promise<void>;
}

type Schedulable = { schedulerId: string; atJobId: (at: number) => string; payload: FirePayload };

export function createCronScheduler(opts: CronSchedulerOptions): CronScheduler {
  const { config, logger } = opts;
  const queue = new Queue<FirePayload>(
    CRON_QUEUE,
    queueOptions(opts.redisTarget, cronQueuePrefix(opts.prefix)),
  );
  queue.on('error', (err) => logger.warn({ err: err.message }, 'cron queue error'));
  const registry: CronJobRegistry = createCronJobRegistry(opts.redis, opts.prefix, logger);
  const retry = fireRetryOptions(config.reliability.scheduler_retries);

  /** Creates or updates one schedule; an identical one already in Redis is left untouched ('unchanged'). */
  async function schedule(
    target: Schedulable,
    sched: CronSchedule,
  ): Promise<'scheduled' | 'unchanged' | 'past'> {
    const fp = JSON.stringify({ sched, attempts: retry.attempts });
    const payload: FirePayload = { ...target.payload, fp };
    if (sched.kind === 'at') {
      const at = Date.parse(sched.at);
      const delay = at - Date.now();
      if (delay <= 0) return 'past';
      const jobId = target.atJobId(at);
      if (await queue.getJob(jobId)) return 'unchanged';
      // A fixed job id: should another process add it meanwhile, the second add is a no-op in BullMQ.
      await queue.add(FIRE_JOB_NAME, payload, { ...retry, jobId, delay });
      return 'scheduled';
    }
    // Re-upserting replaces the pending fire; skipping identical schedules keeps restarts from touching them.
    const existing = await queue.getJobScheduler(target.schedulerId);
    if (existing?.template?.data?.fp === fp) return 'unchanged';
    // An interval job first fires one interval from now (BullMQ alone would fire it at once).
    const repeat =
      sched.kind === 'cron'
        ? { pattern: sched.expr, tz: sched.tz }
        : { every: sched.every_ms, startDate: Date.now() + sched.every_ms };
    await queue.upsertJobScheduler(target.schedulerId, repeat, {
      name: FIRE_JOB_NAME,
      data: payload,
      opts: retry,
    });
    return 'scheduled';
  }

  const configTarget = (alias: string): Schedulable => ({
    schedulerId: configSchedulerId(alias),
    atJobId: (at) => configAtJobId(alias, at),
    payload: { source: 'config', alias },
  });
  const toolTarget = (id: string): Schedulable => ({
    schedulerId: toolSchedulerId(id),
    atJobId: () => toolAtJobId(id),
    payload: { source: 'tool', id },
  });

  async function nextRunOf(schedulerId: string, sched: CronSchedule): Promise<string | null> {
    if (sched.kind === 'at') return sched.at;
    const next = (await queue.getJobScheduler(schedulerId))?.next;
    return typeof next === 'number' ? new Date(next).toISOString() : null;
  }

  async function removeUndeclared(declared: DeclaredCronJob[]): Promise<string[]> {
    const keep = new Set(
      declared.filter((j) => j.config.schedule.kind !== 'at').map((j) => configSchedulerId(j.alias)),
    );
    const keepAt = new Set(
      declared.flatMap((j) =>
        j.config.schedule.kind === 'at' ? [configAtJobId(j.alias, Date.parse(j.config.schedule.at))] : [],
      ),
    );
    const removed: string[] = [];
    for (const s of await queue.getJobSchedulers()) {
      if (s.key.startsWith(CONFIG_SCHEDULER_PREFIX) && !keep.has(s.key)) {
        await queue.removeJobScheduler(s.key);
        removed.push(s.key);
      }
    }
    for (const job of await queue.getJobs(['delayed'])) {
      if (job?.id?.startsWith('cfg-at-') && !keepAt.has(job.id)) {
        await job.remove();
        removed.push(job.id);
      }
    }
    return removed;
  }

  return {
    async sync() {
      const declared = declaredAgentJobs(opts.currentConfig?.() ?? config);
      const report: CronSyncReport = { scheduled: [], unchanged: [], removed: [], skippedPast: [] };
      for (const job of declared) {
        const outcome = await schedule(configTarget(job.alias), job.config.schedule);
        if (outcome === 'past') report.skippedPast.push(job.alias);
        else report[outcome].push(job.alias);
      }
      report.removed = await removeUndeclared(declared);
      logger.info({ ...report }, 'cron schedules synced');
      return report;
    },

    async add(job) {
      const error = checkSchedule(job.schedule, cronExpressionError, Date.now());
      if (error) return { ok: false, error };
      const record = await registry.create(job);
      await schedule(toolTarget(record.id), record.schedule);
      return { ok: true, job: record, nextRun: await nextRunOf(toolSchedulerId(record.id), record.schedule) };
    },

    async list(agent) {
      const fromConfig = declaredAgentJobs(opts.currentConfig?.() ?? config).filter(
        (j) => j.ownerAgent === agent,
      );
      const out: CronListEntry[] = [];
      for (const j of fromConfig) {
        const d = j.config.delivery;
        out.push({
          id: j.alias,
          source: 'config',
          name: j.config.name,
          schedule: j.config.schedule,
          prompt: j.config.prompt,
          delivery: d ? { channel: d.channel, chat: d.recipient } : null,
          next_run: await nextRunOf(configSchedulerId(j.alias), j.config.schedule),
        });
      }
      for (const t of await registry.list(agent)) {
        out.push({ ...entryOf(t), next_run: await nextRunOf(toolSchedulerId(t.id), t.schedule) });
      }
      return out;
    },

    async remove(agent, id) {
      if (declaredAgentJobs(config).some((j) => j.alias === id && j.ownerAgent === agent))
        return 'declared_in_config';
      const record = await registry.get(id);
      if (!record || record.agent !== agent) return 'not_found';
      await queue.removeJobScheduler(toolSchedulerId(id));
      await queue.remove(toolAtJobId(id));
      await registry.remove(id);
      return 'removed';
    },

    async runNow(agent, id) {
      let payload: FirePayload | null = null;
      if (declaredAgentJobs(config).some((j) => j.alias === id && j.ownerAgent === agent)) {
        payload = { source: 'config', alias: id };
      } else if ((await registry.get(id))?.agent === agent) {
        payload = { source: 'tool', id };
      }
      if (!payload) return { ok: false, reason: 'not_found' };
      const jobId = manualJobId(id, randomBytes(6).toString('hex'));
      await queue.add(FIRE_JOB_NAME, payload, { ...retry, jobId });
      return { ok: true, fireId: jobId };
    },

    async inspect() {
      const schedulers = (await queue.getJobSchedulers()).map((s) => s.key).sort();
      const oneOff = (await queue.getJobs(['delayed', 'waiting']))
        .map((j) => j?.id ?? '')
        .filter((id) => id.startsWith('cfg-at-') || id.startsWith('tool-at-'))
        .sort();
      return { schedulers, oneOff };
    },

    close: () => queue.close(),
  };
}

function entryOf(t: ToolCronJob): Omit<CronListEntry, 'next_run'> {
  return {
    id: t.id,
    source: 'tool',
    name: t.name,
    schedule: t.schedule,
    prompt: t.prompt,
    delivery: t.delivery,
  };
}
