// The cron contract the tools and the runtime share: tool-created job records and the CronControl seam.
import type { Recipient } from '../channel-host/types.ts';
import type { CronSchedule } from '../config/types.ts';

/** A job created by cron_add: stored in Redis, owned by the calling agent, delivered to a chat. */
export interface ToolCronJob {
  /** `t-<8 hex>`: also the job's cron_job_id in logs. */
  id: string;
  agent: string;
  name: string;
  schedule: CronSchedule;
  prompt: string;
  delivery: Recipient;
  created_at: string;
}

export interface NewToolCronJob {
  agent: string;
  name: string;
  schedule: CronSchedule;
  prompt: string;
  delivery: Recipient;
}

/** One row of cron_list: a config job owned by the agent, or one of its tool-created jobs. */
export interface CronListEntry {
  id: string;
  source: 'config' | 'tool';
  name: string;
  schedule: CronSchedule;
  prompt: string;
  delivery: Recipient | null;
  /** ISO time of the next fire, when one is scheduled. */
  next_run: string | null;
}

export type CronAddResult =
  | { ok: true; job: ToolCronJob; nextRun: string | null }
  | { ok: false; error: string };
export type CronRemoveResult = 'removed' | 'not_found' | 'declared_in_config';
export type CronRunResult = { ok: true; fireId: string } | { ok: false; reason: 'not_found' };

/** What the cron tools act through; implemented over BullMQ job schedulers in src/queue/cron-scheduler.ts. */
export interface CronControl {
  /** Validates the schedule (expression, time zone, past `at`), stores the job and schedules it. */
  add(job: NewToolCronJob): Promise<CronAddResult>;
  list(agent: string): Promise<CronListEntry[]>;
  remove(agent: string, id: string): Promise<CronRemoveResult>;
  /** Enqueues one fire now (a config job of this agent or one of its tool jobs). */
  runNow(agent: string, id: string): Promise<CronRunResult>;
}
