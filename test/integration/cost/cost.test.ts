// Per-hop cost tracking through real delegations: ledger rows, ceilings, the ancestor chain, shared limits, reset.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scanKeys } from '../../../src/core/redis-scan.ts';
import { unreadableCounter } from '../../../src/cost/cost-messages.ts';
import { checkCostCeilings, rootCostScope } from '../../../src/cost/cost-scope.ts';
import { costKeyPattern, createCostLedger } from '../../../src/cost/ledger.ts';
import { createDelegateTasks } from '../../../src/delegation/delegate-tasks.ts';
import type { DelegateWorker } from '../../../src/queue/delegate-worker.ts';
import { type AgentHarness, createAgentHarness } from '../../helpers/agent-harness.ts';
import { startHarnessDelegateWorker } from '../../helpers/delegate-worker.ts';
import { resultOf } from '../delegate/helpers.ts';

// One request of 1000 input tokens on cheap-model costs exactly 1 cent (10 USD/Mtok × 1000 = 10000 µ$).
const TOML = `
[providers.models.custom.cheap]
uri = "\${MODEL_URI}"
model = "cheap-model"

[providers.models.custom.root]
uri = "\${MODEL_URI}"
model = "root-model"

[reliability]
provider_retries = 0

[cost]
daily_limit_usd = 1.0
monthly_limit_usd = 2.0

[cost.rates.providers.models.custom."cheap-model"]
input_per_mtok = 10.0

[risk_profiles.ops]
delegation_policy = { mode = "allow" }
auto_approve = ["delegate", "file_read"]

[risk_profiles.solo]
allowed_tools = ["file_read"]

[runtime_profiles.boss]
max_cost_per_day_cents = 3
max_execution_tree_iterations = 8

[runtime_profiles.agentic]
agentic = true
max_tool_iterations = 4
max_cost_per_day_cents = 500

[runtime_profiles.tight]
agentic = true
max_cost_per_day_cents = 2

[agents.boss]
model_provider = "custom.root"
risk_profile = "ops"
runtime_profile = "boss"
delegates = [{ agent = "indie", mode = "independent" }]

[agents.coder]
model_provider = "custom.cheap"
risk_profile = "ops"
runtime_profile = "agentic"

[agents.small]
model_provider = "custom.cheap"
risk_profile = "ops"
runtime_profile = "tight"

[agents.indie]
model_provider = "custom.cheap"
risk_profile = "solo"
runtime_profile = "agentic"
`;

let h: AgentHarness;
let worker: DelegateWorker;
beforeAll(async () => {
  h = await createAgentHarness('cost', TOML);
  worker = startHarnessDelegateWorker(h, {
    concurrency: 4,
  });
});
afterAll(async () => {
  await worker.close();
  await h.close();
});
beforeEach(async () => {
  h.server.reset();
  const keys = await scanKeys(h.redis, costKeyPattern(h.prefix));
  if (keys.length) await h.redis.del(...keys);
});

const ledger = () => createCostLedger(h.redis, h.prefix, h.services.logger);
const CENT = { inputTokens: 1000, outputTokens: 0 };
const cents = async (alias: string) => {
  const snap = await ledger().read([alias]);
  const row = snap.agents.get(alias)!;
  return { own: row.own / 10_000, descendants: row.descendants / 10_000, day: snap.day / 10_000 };
};

async function bossDelegates(args: Record<string, unknown>) {
  h.server.script([{ toolCalls: [{ id: 'd1', name: 'delegate', arguments: args }] }, { text: 'done' }], {
    model: 'root-model',
  });
  await h.turn('boss', 'go');
  return resultOf(h.server, 'd1');
}

describe('cost per hop', () => {
  it("records a delegated loop under the target and in each bounded ancestor's descendant total", async () => {
    h.server.script(
      [
        { usage: CENT, toolCalls: [{ name: 'file_read', arguments: { path: 'x' } }] },
        { usage: CENT, text: 'ok' },
      ],
      { model: 'cheap-model' },
    );
    expect(await bossDelegates({ agent: 'coder', prompt: 'x' })).toBe(
      "[Agent 'coder' (custom/cheap-model, agentic)]\nok",
    );
    expect(await cents('coder')).toMatchObject({ own: 2 });
    expect(await cents('boss')).toMatchObject({ own: 0, descendants: 2, day: 2 });
  });

  it("refuses at the target's own ceiling before calling its provider", async () => {
    await ledger().record({ alias: 'small', ancestors: [], perAgent: true, microUsd: 20_000 });
    expect(await bossDelegates({ agent: 'small', prompt: 'x' })).toBe(
      "Error: Agent 'small' failed: daily cost ceiling reached for agent 'small' (2 of 2 cents)",
    );
    expect(h.server.requests.filter((r) => r.body.model === 'cheap-model')).toHaveLength(0);
  });

  it("tightens a bounded hop to the caller's ceiling and counts descendants toward it", async () => {
    await ledger().record({ alias: 'coder', ancestors: ['boss'], perAgent: true, microUsd: 30_000 });
    expect(await bossDelegates({ agent: 'small', prompt: 'x' })).toBe(
      "Error: Agent 'small' failed: daily cost ceiling reached for agent 'boss' (3 of 3 cents)",
    );
  });

  it('lets an independent hop run on its own ceiling when the caller is exhausted', async () => {
    await ledger().record({ alias: 'boss', ancestors: [], perAgent: true, microUsd: 30_000 });
    h.server.script([{ usage: CENT, text: 'indie ok' }], { model: 'cheap-model' });
    expect(await bossDelegates({ agent: 'indie', prompt: 'x' })).toBe(
      "[Agent 'indie' (custom/cheap-model, agentic)]\nindie ok",
    );
    expect(await cents('boss')).toMatchObject({ own: 3, descendants: 0 });
  });

  it('applies the shared daily and monthly limits as hard limits', async () => {
    await ledger().record({ alias: 'someone', ancestors: [], perAgent: true, microUsd: 1_000_000 });
    expect(await bossDelegates({ agent: 'indie', prompt: 'x' })).toBe(
      "Error: Agent 'indie' failed: shared daily cost limit reached ($1.00 of $1.00)",
    );
    await h.redis.del(ledger().keys().day);
    h.server.reset();
    await h.redis.set(ledger().keys().month, 2_500_000);
    expect(await bossDelegates({ agent: 'indie', prompt: 'x' })).toBe(
      "Error: Agent 'indie' failed: shared monthly cost limit reached ($2.50 of $2.00)",
    );
  });

  it('compares the shared total with each ceiling when track_per_agent is off', async () => {
    const services = {
      ...h.services,
      config: { ...h.services.config, cost: { ...h.services.config.cost, track_per_agent: false } },
    };
    await ledger().record({ alias: 'other', ancestors: [], perAgent: false, microUsd: 20_000 });
    const scope = { ...rootCostScope(services.config, 'small'), delegated: true };
    expect(await checkCostCeilings(services, scope)).toBe(
      "daily cost ceiling reached for agent 'small' (2 of 2 cents)",
    );
  });

  it('resets daily totals at UTC midnight but keeps the month', async () => {
    const before = new Date('2030-05-31T23:59:59.900Z');
    await ledger().record({ alias: 'boss', ancestors: [], perAgent: true, microUsd: 50_000, now: before });
    const next = await ledger().read(['boss'], new Date('2030-06-01T00:00:00.000Z'));
    expect(next.day).toBe(0);
    expect(next.agents.get('boss')).toEqual({ own: 0, descendants: 0 });
    const sameMonth = await ledger().read(['boss'], new Date('2030-05-01T00:00:00.000Z'));
    expect(sameMonth.month).toBe(50_000);
    expect(sameMonth.day).toBe(0);
  });
});

describe('a ledger counter that is not a number', () => {
  const unreadable = (key: string) => h.logs.filter((l) => l.msg === unreadableCounter && l.key === key);

  it('refuses every hop its limit applies to, with the normal text; other agents go on', async () => {
    const smallKey = ledger().keys().agent('small');
    await h.redis.set(smallKey, 'garbage');
    expect(await bossDelegates({ agent: 'small', prompt: 'x' })).toBe(
      "Error: Agent 'small' failed: daily cost ceiling reached for agent 'small' (2 of 2 cents)",
    );
    expect(h.server.requests.filter((r) => r.body.model === 'cheap-model')).toHaveLength(0);
    expect(unreadable(smallKey).length).toBeGreaterThan(0);

    h.server.reset();
    h.server.script([{ usage: CENT, text: 'fine' }], { model: 'cheap-model' });
    expect(await bossDelegates({ agent: 'coder', prompt: 'x' })).toBe(
      "[Agent 'coder' (custom/cheap-model, agentic)]\nfine",
    );
    expect(await cents('coder')).toMatchObject({ own: 1, day: 1 });
  });

  it('is refused by the atomic reservation and skipped, not crashed on, by recording', async () => {
    const k = ledger().keys();
    await h.redis.set(k.agent('small'), '12abc');
    const reserve = { chain: ['boss', 'small'], ceilings: [30_000, 20_000], dailyLimit: 1_000_000 };
    expect(
      await ledger().reserve({ ...reserve, monthlyLimit: 2_000_000, perAgent: true, estimate: 100 }),
    ).toEqual({ ok: false, limit: 'ceiling', member: 1, spent: 20_000 });
    const res = await ledger().record({
      alias: 'small',
      ancestors: ['boss'],
      perAgent: true,
      microUsd: 10_000,
    });
    expect(res).toMatchObject({ day: 10_000, month: 10_000 });
    expect(await h.redis.get(k.agent('small'))).toBe('12abc');
    expect(await cents('boss')).toMatchObject({ descendants: 1 });

    await h.redis.set(k.day, '1.5');
    expect(
      await ledger().reserve({ ...reserve, monthlyLimit: 2_000_000, perAgent: true, estimate: 100 }),
    ).toEqual({ ok: false, limit: 'daily', spent: 1_000_000 });
    const snap = await ledger().read(['small']);
    expect([snap.day, snap.agents.get('small')?.own]).toEqual([Infinity, Infinity]);
    expect(unreadable(k.day).length).toBeGreaterThan(0);
  });
});

describe('one root, concurrent children', () => {
  it('two parallel children and a background child share one cost chain, counted once', async () => {
    const loop = { usage: CENT, toolCalls: [{ name: 'file_read', arguments: { path: 'x' } }] };
    h.server.respond((req) => (req.body.model === 'cheap-model' ? loop : undefined));
    h.server.script(
      [
        {
          toolCalls: [
            { id: 'bg', name: 'delegate', arguments: { agent: 'coder', prompt: 'bg', background: true } },
            { id: 'par', name: 'delegate', arguments: { parallel: ['coder', 'coder'], prompt: 'fg' } },
          ],
        },
        { text: 'done' },
      ],
      { model: 'root-model' },
    );
    await h.turn('boss', 'go');
    const id = /task_id: (\S+)/.exec(resultOf(h.server, 'bg') ?? '')?.[1] ?? '';
    const tasks = createDelegateTasks(h.redis, h.prefix);
    const deadline = Date.now() + 10_000;
    while ((await tasks.get(id))?.status === 'running' && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    const cheapRequests = h.server.requests.filter((r) => r.body.model === 'cheap-model').length;
    // Every priced request is in the chain exactly once: coder's row, boss's descendants, the shared day.
    const c = await cents('coder');
    const b = await cents('boss');
    expect(c.own).toBe(cheapRequests);
    expect(b.descendants).toBe(cheapRequests);
    expect(c.day).toBe(cheapRequests);
    // boss's 3-cent ceiling (coder's effective ceiling on this bounded chain) stopped every child.
    const refusal = /daily cost ceiling reached for agent '(coder|boss)' \(\d+ of 3 cents\)/;
    expect(resultOf(h.server, 'par')).toMatch(refusal);
    expect((await tasks.get(id))?.error).toMatch(refusal);
    // Each request reserves its estimate atomically with the check, so concurrent children in any worker
    // cannot overdraw the chain: at 1 cent a request, a 3-cent ceiling admits at most 3 requests.
    expect(cheapRequests).toBeLessThanOrEqual(3);
    expect(b.descendants).toBeLessThanOrEqual(3);
  });
});
