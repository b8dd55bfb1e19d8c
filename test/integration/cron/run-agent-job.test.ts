// run_agent_job through real turns: checks and their exact texts, prompt prefix, model, tools, sessions, logs.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runtimeDenialText } from '../../../src/approval/approval-messages.ts';
import { runAgentJob } from '../../../src/queue/run-agent-job.ts';
import type { RuntimeServices } from '../../../src/run-contract/run-context.ts';
import type { ActionBuckets } from '../../../src/security/action-buckets.ts';
import { toolNamesOf } from '../../fakes/model-requests.ts';
import { type AgentHarness, createAgentHarness, toolResultIn } from '../../helpers/agent-harness.ts';
import { attachCron, type CronFixture } from './cron-fixture.ts';

const TOML = `
[providers.models.custom.fake]
uri = "\${MODEL_URI}"
model = "fake-model"

[reliability]
provider_retries = 0
provider_backoff_ms = 1

[risk_profiles.default]
auto_approve = ["spawn_subagent", "memory_store", "cron_add"]

[risk_profiles.reader]
level = "readonly"

[runtime_profiles.default]
max_tool_iterations = 3
max_execution_tree_iterations = 5

[runtime_profiles.one-action]
max_actions_per_hour = 1

[runtime_profiles.no-actions]
max_actions_per_hour = 0

[agents.main]
model_provider = "custom.fake"
risk_profile = "default"
runtime_profile = "default"
cron_jobs = ["brief", "bare", "lean", "picky", "shared", "override"]

[agents.reader]
model_provider = "custom.fake"
risk_profile = "reader"
cron_jobs = ["ro"]

[agents.broke]
model_provider = "custom.fake"
risk_profile = "default"
runtime_profile = "no-actions"
cron_jobs = ["nobudget"]

[agents.single]
model_provider = "custom.fake"
risk_profile = "default"
runtime_profile = "one-action"
cron_jobs = ["race"]

[cron.brief]
job_type = "agent"
name = "Morning brief"
prompt = "summarise the news"
schedule = { kind = "cron", expr = "0 9 * * *", tz = "Europe/Paris" }

[cron.bare]
job_type = "agent"
schedule = { kind = "every", every_ms = 60000 }

[cron.lean]
job_type = "agent"
prompt = "no memory"
uses_memory = false
schedule = { kind = "every", every_ms = 60000 }

[cron.picky]
job_type = "agent"
prompt = "few tools"
allowed_tools = ["file_read", "cron_add", "memory_store"]
schedule = { kind = "every", every_ms = 60000 }

[cron.shared]
job_type = "agent"
prompt = "keep going"
session_target = "main"
schedule = { kind = "every", every_ms = 60000 }

[cron.override]
job_type = "agent"
prompt = "cheap model"
model = "cron-model"
schedule = { kind = "every", every_ms = 60000 }

[cron.ro]
job_type = "agent"
schedule = { kind = "every", every_ms = 60000 }

[cron.nobudget]
job_type = "agent"
schedule = { kind = "every", every_ms = 60000 }

[cron.race]
job_type = "agent"
schedule = { kind = "every", every_ms = 60000 }
`;

let h: AgentHarness;
let cron: CronFixture;
beforeAll(async () => {
  h = await createAgentHarness('cron-job', TOML);
  // A real scheduler behind services.cron, so the cron_* tools are part of the tool set.
  cron = attachCron(h);
});
afterAll(async () => {
  await cron.close();
  await h.close();
});
beforeEach(() => h.server.reset());

const jobOf = (alias: string, ownerAgent = 'main') => ({
  alias,
  config: h.services.config.cron[alias]!,
  ownerAgent,
});
const run = (alias: string, owner?: string, services: RuntimeServices = h.services, runId?: string) =>
  runAgentJob(services, jobOf(alias, owner), {
    signal: new AbortController().signal,
    ...(runId ? { runId } : {}),
  });
const userMessages = (i: number) =>
  (h.server.requests[i]!.body.messages ?? []).filter((m) => m.role === 'user').map((m) => m.content);

describe('run_agent_job checks', () => {
  it('fails identity resolution with the subagent spawn text and the error chain', async () => {
    const res = await run('brief', 'ghost');
    expect(res).toMatchObject({
      ok: false,
      error: 'subagent spawn failed: no agent configured under alias "ghost"',
    });
    expect(h.server.requests).toHaveLength(0);
  });

  it('refuses a read-only agent', async () => {
    const res = await run('ro', 'reader');
    expect(res).toMatchObject({ ok: false, error: 'blocked by security policy: autonomy is read-only' });
    expect(h.server.requests).toHaveLength(0);
  });

  it('refuses when the cron sender bucket is already full (max_actions_per_hour = 0)', async () => {
    const res = await run('nobudget', 'broke');
    expect(res).toMatchObject({ ok: false, error: 'blocked by security policy: rate limit exceeded' });
    expect(h.server.requests).toHaveLength(0);
  });

  it('refuses when another run takes the last slot between the check and the atomic record', async () => {
    const real = h.services.buckets;
    // Real Redis bucket; the hook lets a concurrent run record the last action right after step 3 looked.
    const racing: ActionBuckets = {
      ...real,
      async isExhausted(owner, sender, limit, now) {
        const exhausted = await real.isExhausted(owner, sender, limit, now);
        await real.tryRecord(owner, sender, limit);
        return exhausted;
      },
    };
    const res = await run('race', 'single', { ...h.services, buckets: racing });
    expect(res).toMatchObject({ ok: false, error: 'blocked by security policy: action budget exhausted' });
    expect(await h.redis.zcard(real.keyOf('single', 'cron:race'))).toBe(1);
  });

  it('records one action in the cron:<alias> bucket of the owning agent', async () => {
    h.server.script([{ text: 'ok' }]);
    const key = h.services.buckets.keyOf('main', 'cron:bare');
    const before = await h.redis.zcard(key);
    await run('bare');
    expect(await h.redis.zcard(key)).toBe(before + 1);
  });
});

describe('run_agent_job run', () => {
  it('sends the prefixed prompt and returns the final text', async () => {
    h.server.script([{ text: 'Today: sunny.' }]);
    const res = await run('brief');
    expect(res).toMatchObject({ ok: true, output: 'Today: sunny.' });
    expect(userMessages(0)).toEqual(['[cron:brief Morning brief] summarise the news']);
    expect(h.server.requests[0]!.body.model).toBe('fake-model');
  });

  it('defaults name to cron-job and prompt to "", and answers `agent job executed` for an empty text', async () => {
    h.server.script([{ text: '   ' }]);
    const res = await run('bare');
    expect(res).toMatchObject({ ok: true, output: 'agent job executed' });
    expect(userMessages(0)).toEqual(['[cron:bare cron-job] ']);
  });

  it('replaces the model id with the job`s model', async () => {
    h.server.script([{ text: 'ok' }]);
    await run('override');
    expect(h.server.requests[0]!.body.model).toBe('cron-model');
  });

  it('removes scheduler mutation tools without allowed_tools, keeps memory tools', async () => {
    h.server.script([{ text: 'ok' }]);
    await run('bare');
    const names = toolNamesOf(h.server.requests[0]!);
    expect(names).toContain('memory_store');
    expect(names).toContain('cron_list');
    for (const t of ['cron_add', 'cron_remove', 'cron_run']) expect(names).not.toContain(t);
  });

  it('intersects with allowed_tools, which may keep a scheduler tool', async () => {
    h.server.script([{ text: 'ok' }]);
    await run('picky');
    expect(toolNamesOf(h.server.requests[0]!).sort()).toEqual(['cron_add', 'file_read', 'memory_store']);
  });

  it('has no memory tools with uses_memory = false', async () => {
    h.server.script([{ text: 'ok' }]);
    await run('lean');
    const names = toolNamesOf(h.server.requests[0]!);
    expect(names).toContain('file_read');
    expect(names.filter((n) => n.startsWith('memory_'))).toEqual([]);
  });

  it('keeps an isolated run in session cron-<run_id> and a main-target run in session main', async () => {
    h.server.script([{ text: 'isolated answer' }, { text: 'main answer' }]);
    const isolated = await run('bare');
    const iso = await h.services.history.load('main', `cron-${isolated.runId}`);
    expect(iso.map((m) => m.content)).toEqual(['[cron:bare cron-job] ', 'isolated answer']);
    await run('shared');
    const main = await h.services.history.load('main', 'main');
    expect(main.map((m) => m.content)).toEqual(['[cron:shared cron-job] keep going', 'main answer']);
  });

  it('is a depth-0 root: it may spawn one subagent', async () => {
    h.server.script([
      { toolCalls: [{ id: 's1', name: 'spawn_subagent', arguments: { prompt: 'sub task' } }] },
      { text: 'child done' },
      { text: 'parent done' },
    ]);
    const res = await run('bare');
    expect(res).toMatchObject({ ok: true, output: 'parent done' });
    expect(toolResultIn(h.server.requests[2]!, 's1')).toBe('child done');
  });

  it('asks no one: a call that needs approval is denied by the runtime', async () => {
    h.server.script([
      { toolCalls: [{ id: 'w1', name: 'file_write', arguments: { path: 'a.txt', content: 'x' } }] },
      { text: 'gave up' },
    ]);
    await run('bare');
    expect(toolResultIn(h.server.requests[1]!, 'w1')).toContain(runtimeDenialText('file_write'));
  });

  it('carries span, category, agent_alias, cron_job_id, run_id and spawn_site on every log line of the run', async () => {
    h.server.script([{ text: 'logged' }]);
    const res = await run('brief');
    const lines = h.logs.filter((l) => l.run_id === res.runId);
    expect(lines.length).toBeGreaterThan(2);
    for (const l of lines) {
      expect(l).toMatchObject({
        span: 'subagent',
        category: 'cron',
        agent_alias: 'main',
        cron_job_id: 'brief',
        run_id: res.runId,
        spawn_site: 'cron',
      });
    }
    // Lines from inside the loop (the model request), not only run_agent_job's own.
    const own = new Set(['cron job started', 'cron job finished']);
    expect(lines.some((l) => !own.has(String(l.msg)))).toBe(true);
  });
});

describe('run_agent_job failure', () => {
  it('answers agent job failed: <error> and purges the isolated session of that run', async () => {
    const runId = '11111111-2222-4333-8444-555555555555';
    await h.services.history.append('main', `cron-${runId}`, 'seed', [{ role: 'user', content: 'earlier' }]);
    h.server.script([{ status: 400, body: { error: { message: 'bad request from fake' } } }]);
    const res = await run('bare', 'main', h.services, runId);
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.error).toMatch(/^agent job failed: \S/);
    expect(res.runId).toBe(runId);
    expect(await h.services.history.load('main', `cron-${runId}`)).toEqual([]);
  });

  it('keeps the main session of a main-target job', async () => {
    await h.services.history.append('main', 'main', 'seed-main', [{ role: 'user', content: 'keep me' }]);
    h.server.script([{ status: 400, body: { error: { message: 'bad request from fake' } } }]);
    const res = await run('shared');
    expect(res.ok).toBe(false);
    const main = await h.services.history.load('main', 'main');
    expect(main.some((m) => m.content === 'keep me')).toBe(true);
  });
});
