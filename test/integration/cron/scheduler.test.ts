// Config sync, one-off jobs, retries and redelivered fires, on real Redis and BullMQ, in one process.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BatonConfig } from '../../../src/config/types.ts';
import { createFireClaims } from '../../../src/cron/fire-claims.ts';
import { createCronJobRegistry } from '../../../src/cron/job-registry.ts';
import type { CronScheduler } from '../../../src/queue/cron-scheduler.ts';
import { createFireProcessor } from '../../../src/queue/cron-worker.ts';
import { type AgentHarness, createAgentHarness } from '../../helpers/agent-harness.ts';
import { waitFor } from '../../helpers/wait.ts';
import { attachCron, type CronFixture, schedulerFor } from './cron-fixture.ts';
import { createRecordingOutbox, readDeliveries } from './recording-outbox.ts';

const FUTURE = '2099-01-01T09:00:00Z';
const TOML = `
[providers.models.custom.fake]
uri = "\${MODEL_URI}"
model = "fake-model"

[reliability]
provider_retries = 0
scheduler_retries = 1

[risk_profiles.default]

[agents.main]
model_provider = "custom.fake"
risk_profile = "default"
cron_jobs = ["daily", "later", "past", "off", "shelljob", "flaky", "once"]

[cron.daily]
job_type = "agent"
schedule = { kind = "cron", expr = "0 9 * * *", tz = "Europe/Paris" }

[cron.later]
job_type = "agent"
schedule = { kind = "at", at = "${FUTURE}" }

[cron.past]
job_type = "agent"
schedule = { kind = "at", at = "2001-01-01T00:00:00Z" }

[cron.off]
job_type = "agent"
enabled = false
schedule = { kind = "cron", expr = "0 9 * * *" }

[cron.shelljob]
command = "echo hi"
schedule = { kind = "cron", expr = "0 9 * * *" }

[cron.unlisted]
job_type = "agent"
schedule = { kind = "cron", expr = "0 9 * * *" }

[cron.flaky]
job_type = "agent"
prompt = "try hard"
schedule = { kind = "cron", expr = "0 0 1 1 *" }
delivery = { channel = "telegram.main", recipient = "ops" }

[cron.once]
job_type = "agent"
prompt = "just once"
schedule = { kind = "cron", expr = "0 0 1 1 *" }
delivery = { channel = "telegram.main", recipient = "ops" }
`;

let h: AgentHarness;
let cron: CronFixture;
let scheduler: CronScheduler;
const chatKey = () => `${h.prefix}:test-chat`;

beforeAll(async () => {
  h = await createAgentHarness('cron-sched', TOML);
  cron = attachCron(h, { outboxKey: chatKey() });
  scheduler = cron.scheduler;
});
afterAll(async () => {
  await cron.close();
  await h.close();
});
beforeEach(async () => {
  h.server.reset();
  await h.redis.del(chatKey());
});

describe('config sync', () => {
  it('schedules enabled, listed agent jobs only; skips a past one-off; a second sync changes nothing', async () => {
    const first = await scheduler.sync();
    expect(first.skippedPast).toEqual(['past']);
    const state = await scheduler.inspect();
    expect(state.schedulers).toEqual(['cfg-daily', 'cfg-flaky', 'cfg-once']);
    expect(state.oneOff).toEqual([`cfg-at-later-${Date.parse(FUTURE)}`]);
    const again = await scheduler.sync();
    expect(again.scheduled).toEqual([]);
    expect(again.unchanged.sort()).toEqual(['daily', 'flaky', 'later', 'once']);
    expect(await scheduler.inspect()).toEqual(state);
  });

  it('removes config schedules no longer declared and keeps tool-created ones', async () => {
    const base = h.services.config;
    const main = base.agents.main!;
    const wider: BatonConfig = {
      ...base,
      agents: { ...base.agents, main: { ...main, cron_jobs: [...main.cron_jobs, 'stale'] } },
      cron: { ...base.cron, stale: { ...base.cron.daily!, alias: 'stale' } },
    };
    const other = schedulerFor(h, wider);
    await other.sync();
    const added = await other.add({
      agent: 'main',
      name: 'kept',
      schedule: { kind: 'cron', expr: '0 8 * * *', tz: 'UTC' },
      prompt: 'p',
      delivery: { channel: 'telegram.main', chat: 'c' },
    });
    await other.close();
    expect(added.ok).toBe(true);
    const report = await scheduler.sync();
    expect(report.removed).toEqual(['cfg-stale']);
    const { schedulers } = await scheduler.inspect();
    expect(schedulers).not.toContain('cfg-stale');
    expect(schedulers).toContain(`tool-${added.ok ? added.job.id : ''}`);
  });
});

describe('fires', () => {
  it('retries a failed firing as a new run with a new run_id, then delivers once', async () => {
    h.server.script([
      { status: 400, body: { error: { message: 'first attempt breaks' } } },
      { text: 'second try worked' },
    ]);
    const fire = await scheduler.runNow('main', 'flaky');
    expect(fire.ok).toBe(true);
    await waitFor(
      async () => (await readDeliveries(h.redis, chatKey())).length === 1,
      10_000,
      'the delivery',
    );
    const [d] = await readDeliveries(h.redis, chatKey());
    expect(d).toMatchObject({ text: 'second try worked', to: { channel: 'telegram.main', chat: 'ops' } });
    expect(h.server.requests).toHaveLength(2);
    const runIds = new Set(h.logs.filter((l) => l.cron_job_id === 'flaky').map((l) => l.run_id));
    expect(runIds.size).toBe(2);
  });

  it('a redelivered attempt never runs the agent again: it re-posts the stored result under the same key', async () => {
    const processFire = createFireProcessor({
      services: h.services,
      outbox: createRecordingOutbox(h.redis, chatKey()),
      registry: createCronJobRegistry(h.redis, h.prefix),
      claims: createFireClaims(h.redis, h.prefix),
      prefix: h.prefix,
    });
    h.server.script([{ text: 'only once' }]);
    const fire = {
      id: 'run-once-test',
      data: { source: 'config', alias: 'once' },
      attemptsMade: 0,
      attempts: 1,
    };
    const signal = new AbortController().signal;
    expect(await processFire(fire, signal)).toBe('delivered');
    expect(await processFire(fire, signal)).toBe('redelivered');
    const deliveries = await readDeliveries(h.redis, chatKey());
    expect(deliveries.map((d) => [d.text, d.key])).toEqual([
      ['only once', 'cron:run-once-test'],
      ['only once', 'cron:run-once-test'],
    ]);
    expect(h.server.requests).toHaveLength(1);
    // An attempt claimed by a run that has not finished (or died) is not run a second time either.
    await createFireClaims(h.redis, h.prefix).claim('run-stalled', 0, 'someone-else');
    expect(await processFire({ ...fire, id: 'run-stalled' }, signal)).toBe('already_claimed');
    expect(h.server.requests).toHaveLength(1);
  });
});

describe('one-off jobs', () => {
  const soon = (ms: number) => new Date(Date.now() + ms).toISOString();

  it('a config at job fires once at its time; once past, a later sync skips it', async () => {
    // The worker reads jobs from its own config: declare the job there for this test only.
    const config = h.services.config;
    const at = soon(300);
    config.cron.soon = {
      ...config.cron.once!,
      alias: 'soon',
      prompt: 'at once',
      schedule: { kind: 'at', at },
    };
    config.agents.main!.cron_jobs.push('soon');
    try {
      h.server.script([{ text: 'it is time' }]);
      expect((await scheduler.sync()).scheduled).toEqual(['soon']);
      await waitFor(
        async () => (await readDeliveries(h.redis, chatKey())).length === 1,
        10_000,
        'the delivery',
      );
      expect((await readDeliveries(h.redis, chatKey()))[0]).toMatchObject({
        text: 'it is time',
        key: `cron:cfg-at-soon-${Date.parse(at)}`,
      });
      expect((await scheduler.sync()).skippedPast).toContain('soon');
      expect(h.server.requests).toHaveLength(1);
    } finally {
      delete config.cron.soon;
      config.agents.main!.cron_jobs.pop();
    }
  });

  it('a tool-created at job is forgotten once it has fired', async () => {
    h.server.script([{ text: 'reminder' }]);
    const added = await scheduler.add({
      agent: 'main',
      name: 'remind',
      schedule: { kind: 'at', at: soon(300) },
      prompt: 'remind me',
      delivery: { channel: 'telegram.main', chat: 'me' },
    });
    expect(added.ok).toBe(true);
    await waitFor(
      async () => (await readDeliveries(h.redis, chatKey())).length === 1,
      10_000,
      'the delivery',
    );
    expect((await readDeliveries(h.redis, chatKey()))[0]).toMatchObject({
      text: 'reminder',
      to: { chat: 'me' },
    });
    await waitFor(
      async () => (await scheduler.list('main')).every((j) => j.name !== 'remind'),
      5_000,
      'removal',
    );
  });
});
