// Which [cron.<alias>] jobs run, and which agent owns each (the first agent listing it in cron_jobs).
import type { BatonConfig, CronJobConfig } from '../config/types.ts';

export interface DeclaredCronJob {
  alias: string;
  config: CronJobConfig;
  ownerAgent: string;
}

export function cronOwnerOf(config: BatonConfig, alias: string): string | undefined {
  return Object.values(config.agents).find((a) => a.cron_jobs.includes(alias))?.alias;
}

/** Enabled agent jobs that some agent lists; shell jobs and unlisted jobs never run (config.md §14). */
export function declaredAgentJobs(config: BatonConfig): DeclaredCronJob[] {
  const out: DeclaredCronJob[] = [];
  for (const [alias, job] of Object.entries(config.cron)) {
    if (job.job_type !== 'agent' || !job.enabled) continue;
    const ownerAgent = cronOwnerOf(config, alias);
    if (ownerAgent) out.push({ alias, config: job, ownerAgent });
  }
  return out;
}

/** A tool-created job as the job config run_agent_job takes: isolated, memory on, default tool filtering. */
export function toolJobConfig(job: {
  id: string;
  name: string;
  prompt: string;
  schedule: CronJobConfig['schedule'];
}): CronJobConfig {
  return {
    alias: job.id,
    name: job.name,
    job_type: 'agent',
    schedule: job.schedule,
    prompt: job.prompt,
    command: undefined,
    enabled: true,
    model: undefined,
    allowed_tools: undefined,
    uses_memory: true,
    session_target: 'isolated',
    delivery: undefined,
  };
}
