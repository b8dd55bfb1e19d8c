// Poison records in the fleet and delegation stores (issue 8 item 6): one damaged task record, running-turn mark or
// cron job is skipped with a log line, and the loop that reads it goes on with the good ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { startDelegateReaper } from '../../../src/delegation/delegate-reaper.ts';
import { createDelegateTasks } from '../../../src/delegation/delegate-tasks.ts';
import { taskKey } from '../../../src/delegation/task-records.ts';
import { createAbortBus } from '../../../src/fleet/abort-bus.ts';
import { createRunningTurns, runningTurnsKey } from '../../../src/fleet/running-turns.ts';
import { createSessionAbort } from '../../../src/fleet/session-abort.ts';
import { createCronTools } from '../../../src/tools/cron/cron-tools.ts';
import { type AgentHarness, createAgentHarness } from '../../helpers/agent-harness.ts';
import { spaceOf } from '../../helpers/key-space.ts';
import { capturingLogger } from '../../helpers/providers.ts';
import { testRedis } from '../../helpers/redis.ts';
import { buildRunContext } from '../../helpers/run-context.ts';
import { silentRunningTask } from '../../helpers/task-fixtures.ts';
import { attachCron, type CronFixture } from '../cron/cron-fixture.ts';

const TOML = `
[providers.models.custom.fake]
uri = "\${MODEL_URI}"
model = "fake-model"

[risk_profiles.default]
auto_approve = ["cron_list"]

[agents.main]
model_provider = "custom.fake"
risk_profile = "default"
`;

let h: AgentHarness;
let cron: CronFixture;
beforeAll(async () => {
  h = await createAgentHarness('poison-stores', TOML);
  cron = attachCron(h);
});
afterAll(async () => {
  await cron.close();
  await h.close();
});

describe('poison records in the fleet and delegation stores', () => {
  it('the reaper reaps a lost task in the same pass as unreadable records, and frees their slots', async () => {
    const log = capturingLogger();
    const tasks = createDelegateTasks(h.redis, h.prefix);
    const good = '0b6f2a4e-1c3d-4e5f-8a9b-0c1d2e3f4a5b';
    const broken = ['1b6f2a4e-1c3d-4e5f-8a9b-0c1d2e3f4a5b', '2b6f2a4e-1c3d-4e5f-8a9b-0c1d2e3f4a5b'];
    for (const id of [...broken, good]) expect(await tasks.admit(silentRunningTask(id))).toBe(true);
    await h.redis.hset(taskKey(h.prefix, broken[0] ?? ''), 'chain', '["main"'); // not JSON
    await h.redis.hset(taskKey(h.prefix, broken[1] ?? ''), 'depth', '"deep"'); // JSON, wrong type
    const reaper = startDelegateReaper({
      redis: h.redis,
      prefix: h.prefix,
      delegation: { jobState: async () => 'unknown', publishCancel: async () => {} },
      logger: log.logger,
    });
    try {
      expect(await reaper.runOnce()).toBe(1);
    } finally {
      reaper.close();
    }
    expect((await tasks.get(good))?.status).toBe('lost');
    expect(await tasks.inFlight()).toEqual([]);
    expect(log.lines.filter((l) => l.includes('unreadable task record skipped'))).toHaveLength(2);
    expect(log.lines.join('')).toContain('chain');
    // Listing the alias's tasks skips them too.
    expect((await tasks.listForAlias('main')).map((t) => t.task_id)).toEqual([good]);
  });

  it('cron_list lists the good jobs around an unreadable one', async () => {
    const scheduler = cron.scheduler;
    const add = (prompt: string) =>
      scheduler.add({
        agent: 'main',
        name: prompt,
        schedule: { kind: 'every', every_ms: 3_600_000 },
        prompt,
        delivery: { channel: 'local.test', chat: 'c' },
      });
    await add('first');
    await h.redis.hset(`${h.prefix}:cron-jobs`, 't-broken', '{"id":"t-broken","agent":"main"');
    await h.redis.hset(`${h.prefix}:cron-jobs`, 't-other', JSON.stringify({ id: 't-other', agent: 'main' }));
    await add('second');
    const run = buildRunContext({
      config: h.services.config,
      agentAlias: 'main',
      services: { cron: scheduler },
    });
    const list = createCronTools().find((t) => t.name === 'cron_list')!;
    const res = await list.execute({}, { run, toolCallId: 't', signal: run.signal });
    expect(res.success).toBe(true);
    const prompts = res.output.split('\n').map((l) => (JSON.parse(l) as { prompt: string }).prompt);
    expect(prompts).toEqual(['first', 'second']);
  });

  it('an unreadable running-turn mark is cleared when its session finishes a turn', async () => {
    const session = 'local.test:stale:';
    await h.redis.hset(runningTurnsKey(spaceOf(h.prefix), session), session, 'not json');
    await createRunningTurns(h.redis, spaceOf(h.prefix)).markDone(session, 'r-1');
    expect(await h.redis.hexists(runningTurnsKey(spaceOf(h.prefix), session), session)).toBe(0);
  });

  it('a session whose running-turn mark is unreadable can still be aborted', async () => {
    const sub = testRedis();
    const bus = createAbortBus(h.redis, sub, h.prefix, createSilentLogger());
    try {
      const session = 'local.test:abort:';
      const controller = new AbortController();
      bus.register('session', session, controller);
      await h.redis.hset(runningTurnsKey(spaceOf(h.prefix), session), session, '{"runId":');
      const abort = createSessionAbort(createRunningTurns(h.redis, spaceOf(h.prefix)), bus);
      expect(await abort(session)).toEqual({ aborted: true, runId: null });
      await new Promise<void>((resolve) => {
        if (controller.signal.aborted) resolve();
        else controller.signal.addEventListener('abort', () => resolve());
      });
      expect(await abort('local.test:nothing:')).toEqual({ aborted: false });
    } finally {
      await bus.close();
      await sub.quit();
    }
  });
});
