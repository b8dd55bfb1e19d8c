// warn_at_percent: one warning per UTC day/month across processes, from root turns and delegated hops.
import { describe, expect, it } from 'vitest';
import { createCostLedger } from '../../../src/cost/ledger.ts';
import type { RuntimeServices } from '../../../src/run-contract/run-context.ts';
import {
  bossTurn,
  CENT,
  seedTotals,
  USD,
  useEnforcementHarness,
  warnings,
  withOwnLedger,
} from './enforcement-config.ts';

const h = useEnforcementHarness('cost-warn-at');

const DAILY = 'shared daily cost total crossed warn_at_percent (80%): $0.80 of $1.00';
const warnAt = { day: 0.8 * USD, month: 1.6 * USD };

/** A second worker process: its own ledger (no shared memory) on the same Redis and prefix. */
const otherWorker = (): RuntimeServices => withOwnLedger(h);
const turnOn = bossTurn;

describe('warn_at_percent', () => {
  it('logs the crossing by a root turn once, not again on later spend', async () => {
    await seedTotals(h, 0.79 * USD);
    h.server.respond(() => ({ usage: CENT, text: 'ok' }));
    await h.turn('boss', 'one');
    expect(warnings(h, DAILY)).toHaveLength(1);
    expect(warnings(h, DAILY)[0]).toMatchObject({
      period: 'daily',
      warn_at_percent: 80,
      agent_alias: 'boss',
    });
    await h.turn('boss', 'two');
    await h.turn('boss', 'three');
    expect(warnings(h, DAILY)).toHaveLength(1);
  });

  it('logs once when two workers cross it at the same time', async () => {
    await seedTotals(h, 0.79 * USD);
    h.server.respond(() => ({ usage: CENT, text: 'ok', delayMs: 20 }));
    await Promise.all([turnOn(h.services, 'a'), turnOn(otherWorker(), 'b'), turnOn(otherWorker(), 'c')]);
    const both = [
      ...warnings(h, DAILY),
      ...warnings(h, 'shared daily cost total crossed warn_at_percent (80%): $0.81 of $1.00'),
      ...warnings(h, 'shared daily cost total crossed warn_at_percent (80%): $0.82 of $1.00'),
    ];
    expect(both).toHaveLength(1);
  });

  it('logs the monthly crossing on its own', async () => {
    await seedTotals(h, 0.1 * USD, 1.595 * USD);
    h.server.script([{ usage: CENT, text: 'ok' }]);
    await h.turn('boss', 'm');
    expect(
      warnings(h, 'shared monthly cost total crossed warn_at_percent (80%): $1.60 of $2.00'),
    ).toHaveLength(1);
    expect(h.logs.filter((l) => l.period === 'daily')).toHaveLength(0);
  });

  it('is triggered by a delegated hop as well', async () => {
    await seedTotals(h, 0.79 * USD);
    const delegate = { id: 'd1', name: 'delegate', arguments: { agent: 'coder', prompt: 'x' } };
    h.server.script([{ toolCalls: [delegate] }, { usage: CENT, text: 'coder ok' }, { text: 'done' }]);
    await h.turn('boss', 'go');
    expect(warnings(h, DAILY)).toEqual([expect.objectContaining({ agent_alias: 'coder' })]);
  });
});

describe('warn_at_percent markers per period (ledger clock)', () => {
  const record = (ledger: ReturnType<typeof createCostLedger>, now: Date, microUsd = 0.4 * USD) =>
    ledger.record({ alias: 'boss', ancestors: [], perAgent: true, microUsd, warnAt, now });

  it('two ledgers on one Redis: exactly one wins each crossing, and again in each new period', async () => {
    const [a, b] = [
      createCostLedger(h.redis, h.prefix, h.services.logger),
      createCostLedger(h.redis, h.prefix, h.services.logger),
    ];
    const lateMay = new Date('2030-05-31T23:59:59.900Z');
    await record(a, lateMay);
    // Both cross $0.80 (day) together: one of them is told to log.
    const first = await Promise.all([record(a, lateMay), record(b, lateMay)]);
    expect(first.filter((r) => r.warned.day)).toHaveLength(1);
    expect(first.some((r) => r.warned.month)).toBe(false);
    // The marker lives until the period ends (100 ms here).
    expect(await h.redis.pttl(a.keys(lateMay).warned.day)).toBeLessThanOrEqual(100);
    // $1.60 of the month: the monthly crossing, once; the daily one is not repeated.
    const second = await Promise.all([record(a, lateMay), record(b, lateMay)]);
    expect(second.filter((r) => r.warned.month)).toHaveLength(1);
    expect(second.some((r) => r.warned.day)).toBe(false);
    const third = await Promise.all([record(a, lateMay), record(b, lateMay)]);
    expect(third.some((r) => r.warned.day || r.warned.month)).toBe(false);

    // A new UTC day (and month): the totals start again, and so do the crossings.
    const june = new Date('2030-06-01T00:00:00.000Z');
    const next = await Promise.all([record(a, june, 0.8 * USD), record(b, june, 0.1 * USD)]);
    expect(next.filter((r) => r.warned.day)).toHaveLength(1);
    expect(next.some((r) => r.warned.month)).toBe(false);
    const laterInJune = new Date('2030-06-02T10:00:00.000Z');
    expect((await record(b, laterInJune, 0.8 * USD)).warned.day).toBe(true);
    expect((await record(a, laterInJune, 0.1 * USD)).warned.day).toBe(false);
  });

  it('records without thresholds never mark', async () => {
    const ledger = createCostLedger(h.redis, h.prefix, h.services.logger);
    const res = await ledger.record({ alias: 'x', ancestors: [], perAgent: false, microUsd: 2 * USD });
    expect(res.warned).toEqual({ day: false, month: false });
    expect(await h.redis.exists(ledger.keys().warned.day)).toBe(0);
  });
});
