// A reload that changes [cron.*]: the scheduler reads the live config, so the next sync schedules new jobs
// and removes dropped ones (worker-role runs a sync on every reload).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiveConfig } from '../../../src/config/live-config.ts';
import type { BatonConfig } from '../../../src/config/types.ts';
import { configSchedulerId } from '../../../src/queue/cron-fire.ts';
import { type CronScheduler, createCronScheduler } from '../../../src/queue/cron-scheduler.ts';
import { type AgentHarness, createAgentHarness } from '../../helpers/agent-harness.ts';
import { REDIS_URL } from '../../helpers/redis.ts';
import { configFromToml } from '../../helpers/test-config.ts';

const toml = (jobs: string[]) => `
[redis]
prefix = "\${PREFIX}"

[providers.models.custom.fake]
uri = "\${MODEL_URI}"
model = "fake-model"

[risk_profiles.default]

[agents.main]
model_provider = "custom.fake"
risk_profile = "default"
cron_jobs = ${JSON.stringify(jobs)}
${jobs.map((j) => `\n[cron.${j}]\njob_type = "agent"\nschedule = { kind = "cron", expr = "0 9 * * *" }\n`).join('')}`;

let h: AgentHarness;
let scheduler: CronScheduler;

const configOf = (text: string): BatonConfig =>
  configFromToml(text, { env: { MODEL_URI: h.server.openaiBaseUrl, PREFIX: h.prefix } });

beforeAll(async () => {
  h = await createAgentHarness('cron-reload', toml(['daily']));
});
afterAll(async () => {
  await scheduler?.close();
  await h.close();
});

describe('cron sync after a reload', () => {
  it('schedules jobs the reloaded config adds and removes the ones it drops', async () => {
    const config = createLiveConfig(h.services.config);
    scheduler = createCronScheduler({
      config: h.services.config,
      currentConfig: config.current,
      redis: h.redis,
      redisTarget: { url: REDIS_URL },
      prefix: h.prefix,
      logger: h.services.logger,
    });
    await scheduler.sync();
    expect((await scheduler.inspect()).schedulers).toEqual([configSchedulerId('daily')]);
    config.replace(configOf(toml(['weekly'])));
    const report = await scheduler.sync();
    expect(report.scheduled).toEqual(['weekly']);
    expect((await scheduler.inspect()).schedulers).toEqual([configSchedulerId('weekly')]);
  });
});
