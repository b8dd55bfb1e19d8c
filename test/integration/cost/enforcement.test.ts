// [cost.enforcement] for root turns, their spawn_subagent children and delegated hops (config.md §8.2, §15).
import { describe, expect, it, vi } from 'vitest';
import { CostRefusalError } from '../../../src/cost/cost-scope.ts';
import { resultOf } from '../delegate/helpers.ts';
import {
  bossTurn,
  CENT,
  modelsAsked,
  seedTotals,
  setMode,
  totals,
  USD,
  useEnforcementHarness,
  warnings,
  withOwnLedger,
} from './enforcement-config.ts';

const h = useEnforcementHarness('cost-enforcement');

const DAILY_REFUSAL = 'shared daily cost limit reached ($1.00 of $1.00); try again after 00:00 UTC';
const WARN_PROCEEDS =
  'shared daily cost limit reached ($1.00 of $1.00); the request proceeds (cost.enforcement mode "warn")';

/** A turn on services whose ledger has seen nothing yet (no recent totals in this process). */
const freshTurn = (message: string) => bossTurn(withOwnLedger(h), message);

describe('mode "warn" (root turns)', () => {
  it('logs that the shared limit is reached and lets the request proceed', async () => {
    await seedTotals(h, USD);
    h.server.script([{ usage: CENT, text: 'still here' }]);
    expect((await freshTurn('hi')).text).toBe('still here');
    expect(modelsAsked(h)).toEqual(['main-model']);
    // The check does not hold the request up: its read finishes alongside it.
    await vi.waitFor(() => expect(warnings(h, WARN_PROCEEDS)).toHaveLength(1));
    expect((await totals(h)).day).toBe(USD + 10_000);
  });

  it('uses the totals this process saw a moment ago without reading them again', async () => {
    await seedTotals(h, 2 * USD);
    await h.services.cost!.read([]); // as a request recorded just before would
    h.server.script([{ text: 'ok' }]);
    const reads = vi.spyOn(h.services.cost!, 'read');
    await h.turn('boss', 'hi');
    expect(reads).not.toHaveBeenCalled();
    reads.mockRestore();
    expect(
      warnings(
        h,
        'shared daily cost limit reached ($2.00 of $1.00); the request proceeds (cost.enforcement mode "warn")',
      ),
    ).toHaveLength(1);
  });
});

describe('mode "block" (root turns)', () => {
  it('refuses the model request at the shared daily limit without calling the provider', async () => {
    setMode(h, 'block');
    await seedTotals(h, USD, USD);
    const turn = h.turn('boss', 'hi');
    await expect(turn).rejects.toBeInstanceOf(CostRefusalError);
    await expect(turn).rejects.toThrow(DAILY_REFUSAL);
    expect(h.server.requests).toHaveLength(0);
  });

  it('refuses with the normal text when the shared daily total is not a number (fail closed)', async () => {
    setMode(h, 'block');
    await seedTotals(h, 0);
    await h.redis.set(h.services.cost!.keys().day, 'not-a-number');
    const turn = freshTurn('hi');
    await expect(turn).rejects.toThrow(DAILY_REFUSAL);
    expect(h.server.requests).toHaveLength(0);
    expect(h.logs.some((l) => l.level === 50 && l.key === h.services.cost!.keys().day)).toBe(true);
  });

  it('refuses at the shared monthly limit', async () => {
    setMode(h, 'block');
    await seedTotals(h, 0, 2.5 * USD);
    await expect(h.turn('boss', 'hi')).rejects.toThrow(
      'shared monthly cost limit reached ($2.50 of $2.00); try again next month (UTC)',
    );
    expect(h.server.requests).toHaveLength(0);
  });

  it('below the limits proceeds and settles its reservation to the actual price', async () => {
    setMode(h, 'block');
    await seedTotals(h, 0.5 * USD);
    h.server.script([{ usage: { inputTokens: 3000, outputTokens: 0 }, text: 'fine' }]);
    expect((await h.turn('boss', 'hi')).text).toBe('fine');
    expect(await totals(h)).toEqual({ day: 0.5 * USD + 30_000, month: 0.5 * USD + 30_000 });
  });

  it("refuses a spawn_subagent child's request once its parent reached the limit", async () => {
    setMode(h, 'block');
    await seedTotals(h, USD - 10_000);
    h.server.script([
      { usage: CENT, toolCalls: [{ id: 's1', name: 'spawn_subagent', arguments: { prompt: 'x' } }] },
    ]);
    await expect(h.turn('boss', 'hi')).rejects.toThrow(DAILY_REFUSAL);
    // Only the parent's first request reached the provider: the child's and the parent's next were refused.
    expect(h.server.requests).toHaveLength(1);
  });
});

describe('mode "route_down" (root turns)', () => {
  const routed = (spent: string) =>
    `shared daily cost total at $${spent} of $1.00, past the route_down threshold; request sent to "custom.small"`;

  it("below (100 − reserve_percent)% uses the agent's own model", async () => {
    setMode(h, 'route_down');
    await seedTotals(h, 0.899 * USD);
    h.server.script([{ text: 'main answer' }], { model: 'main-model' });
    expect((await h.turn('boss', 'hi')).text).toBe('main answer');
    expect(modelsAsked(h)).toEqual(['main-model']);
  });

  it('from the threshold sends the request to route_down_model, priced at its rate', async () => {
    setMode(h, 'route_down');
    await seedTotals(h, 0.9 * USD);
    h.server.script([{ usage: CENT, text: 'small answer' }], { model: 'small-model' });
    expect((await h.turn('boss', 'hi')).text).toBe('small answer');
    expect(modelsAsked(h)).toEqual(['small-model']);
    expect((await totals(h)).day).toBe(0.9 * USD + 1000);
    expect(h.logs.some((l) => l.msg === routed('0.90'))).toBe(true);
  });

  it('routes on the monthly total as well', async () => {
    setMode(h, 'route_down');
    await seedTotals(h, 0, 1.8 * USD);
    h.server.script([{ text: 'small answer' }], { model: 'small-model' });
    expect((await h.turn('boss', 'hi')).text).toBe('small answer');
    expect(modelsAsked(h)).toEqual(['small-model']);
  });

  it('switches within one turn once its own spend reaches the threshold', async () => {
    setMode(h, 'route_down');
    await seedTotals(h, 0.89 * USD);
    const read = { usage: CENT, toolCalls: [{ name: 'file_read', arguments: { path: 'x' } }] };
    h.server.script([read], { model: 'main-model' });
    h.server.script([{ text: 'done small' }], { model: 'small-model' });
    expect((await h.turn('boss', 'hi')).text).toBe('done small');
    expect(modelsAsked(h)).toEqual(['main-model', 'small-model']);
  });

  it('a route_down_model that cannot be built fails the turn and releases its reservation', async () => {
    setMode(h, 'route_down');
    const enforcement = h.services.config.cost.enforcement;
    enforcement.route_down_model = 'custom.missing';
    try {
      // The first request crosses the threshold; the second reserves its 1 cent, then cannot be built.
      await seedTotals(h, 0.89 * USD);
      const read = { usage: CENT, toolCalls: [{ name: 'file_read', arguments: { path: 'x' } }] };
      h.server.script([read], { model: 'main-model' });
      await expect(h.turn('boss', 'hi')).rejects.toThrow(/custom/);
      expect(modelsAsked(h)).toEqual(['main-model']);
      expect(await totals(h)).toEqual({ day: 0.9 * USD, month: 0.9 * USD });
    } finally {
      enforcement.route_down_model = 'custom.small';
    }
  });

  it('at the limit itself refuses as block does', async () => {
    setMode(h, 'route_down');
    await seedTotals(h, USD);
    await expect(h.turn('boss', 'hi')).rejects.toThrow(DAILY_REFUSAL);
    expect(h.server.requests).toHaveLength(0);
  });
});

describe('delegated sub-loops', () => {
  const delegate = { id: 'd1', name: 'delegate', arguments: { agent: 'coder', prompt: 'x' } };

  it('route_down routes delegated requests too, below the hard limits', async () => {
    setMode(h, 'route_down');
    await seedTotals(h, 0.95 * USD);
    // Every request of the tree is routed: boss's two and coder's one, in that order.
    h.server.script([{ toolCalls: [delegate] }, { usage: CENT, text: 'coder ok' }, { text: 'done' }], {
      model: 'small-model',
    });
    expect((await h.turn('boss', 'go')).text).toBe('done');
    expect(resultOf(h.server, 'd1')).toBe("[Agent 'coder' (custom/small-model, agentic)]\ncoder ok");
    expect(modelsAsked(h)).toEqual(['small-model', 'small-model', 'small-model']);
  });

  it('in warn mode keeps the shared limits hard and does not route', async () => {
    await seedTotals(h, 0.95 * USD);
    h.server.script(
      [{ usage: { inputTokens: 5000, outputTokens: 0 }, toolCalls: [delegate] }, { text: 'done' }],
      {
        model: 'main-model',
      },
    );
    expect((await h.turn('boss', 'go')).text).toBe('done');
    expect(resultOf(h.server, 'd1')).toBe(
      "Error: Agent 'coder' failed: shared daily cost limit reached ($1.00 of $1.00)",
    );
    expect(modelsAsked(h)).toEqual(['main-model', 'main-model']);
  });
});
