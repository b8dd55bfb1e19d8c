// The waiting worker (approvals.md §10 lifecycle 2-5, §14) against real Redis, with the decider on other connections.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createApprovalStore } from '../../../src/approval/approval-store.ts';
import { createApprovalWaiter, type WaiterTiming } from '../../../src/approval/approval-waiter.ts';
import { approvalKeys } from '../../../src/approval/record.ts';
import { capturingLogger } from '../../helpers/providers.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { waitFor } from '../../helpers/wait.ts';
import { newApproval } from './helpers.ts';

const prefix = uniquePrefix('approval-waiter');
const keys = approvalKeys(prefix);
const admin = testRedis();
const workerConn = testRedis();
const subscriberConn = testRedis();
const gatewayConn = testRedis();
const { logger, lines } = capturingLogger();
const store = createApprovalStore({ redis: workerConn, prefix, logger });
const gateway = createApprovalStore({ redis: gatewayConn, prefix, logger });
const operator = { channel: 'telegram.ops', user: '42' };
const NEVER = 3_600_000;
const waiters: { close(): Promise<void> }[] = [];

function waiter(timing: Partial<WaiterTiming>, own = false) {
  const w = createApprovalWaiter({
    store,
    redis: workerConn,
    ...(own ? {} : { subscriber: subscriberConn }),
    logger,
    timing,
  });
  waiters.push(w);
  return w;
}

afterEach(async () => {
  for (const w of waiters.splice(0)) await w.close();
});

afterAll(async () => {
  await deletePrefix(admin, prefix);
  for (const r of [admin, workerConn, subscriberConn, gatewayConn]) await r.quit();
});

const subscribed = async (id: string) =>
  Number(((await admin.pubsub('NUMSUB', keys.decided(id))) as [string, number])[1]) > 0;

describe('waiting for a decision', () => {
  it('gets a decision published from another connection at once (polling is off)', async () => {
    const rec = await store.createPendingApproval(newApproval());
    const wait = waiter({ pollMs: NEVER }).waitForDecision(rec.approval_id, {
      signal: new AbortController().signal,
      expiresAt: rec.expires_at,
    });
    await waitFor(() => subscribed(rec.approval_id), 10_000, 'the waiter subscription');
    const t0 = Date.now();
    expect(await gateway.decide(rec.approval_id, 'approve', operator)).toEqual({
      kind: 'decided',
      status: 'approved',
    });
    const outcome = await wait;
    const ms = Date.now() - t0;
    expect(outcome.kind).toBe('approved');
    expect(outcome.record).toMatchObject({ decided_by: operator, source: 'operator' });
    expect(ms).toBeLessThan(NEVER / 2); // only the publish can have delivered it
    expect(await subscribed(rec.approval_id)).toBe(false); // unsubscribed once done
  });

  it('gets a decision by polling when the publish was missed', async () => {
    const rec = await store.createPendingApproval(newApproval());
    const wait = waiter({ pollMs: 50 }).waitForDecision(rec.approval_id, {
      signal: new AbortController().signal,
      expiresAt: rec.expires_at,
    });
    await waitFor(() => subscribed(rec.approval_id), 10_000, 'the waiter subscription');
    // Written as a decision would be, but with no PUBLISH: only the poll can notice it.
    await admin.hset(keys.record(rec.approval_id), 'status', 'denied', 'source', '"operator"');
    expect((await wait).kind).toBe('denied');
  });

  it('sees a decision made before it subscribed', async () => {
    const rec = await store.createPendingApproval(newApproval());
    await gateway.decide(rec.approval_id, 'always', operator);
    const outcome = await waiter({ pollMs: NEVER }).waitForDecision(rec.approval_id, {
      signal: new AbortController().signal,
      expiresAt: rec.expires_at,
    });
    expect(outcome.kind).toBe('always');
  });

  it('refreshes the waiter heartbeat while it waits', async () => {
    const rec = await store.createPendingApproval(newApproval());
    const ac = new AbortController();
    const wait = waiter({ pollMs: NEVER, heartbeatMs: 40 }).waitForDecision(rec.approval_id, {
      signal: ac.signal,
      expiresAt: rec.expires_at,
    });
    const beats = new Set<number>();
    await waitFor(
      async () => {
        beats.add((await store.get(rec.approval_id))?.waiter_heartbeat_at ?? 0);
        return beats.size >= 3;
      },
      10_000,
      'two heartbeat refreshes',
      10,
    );
    expect(Math.max(...beats)).toBeGreaterThan(rec.waiter_heartbeat_at);
    ac.abort();
    await wait;
  });

  it('sets pending → cancelled when the run aborts, and a later press is late', async () => {
    const rec = await store.createPendingApproval(newApproval());
    const ac = new AbortController();
    const wait = waiter({ pollMs: NEVER }).waitForDecision(rec.approval_id, {
      signal: ac.signal,
      expiresAt: rec.expires_at,
    });
    ac.abort();
    const outcome = await wait;
    expect(outcome.kind).toBe('cancelled');
    expect(outcome.record).toMatchObject({ status: 'cancelled', source: 'cancelled' });
    expect(await gateway.decide(rec.approval_id, 'approve', operator)).toEqual({
      kind: 'late',
      reason: 'not_pending',
    });
  });

  it('cancels at once when the signal is already aborted', async () => {
    const rec = await store.createPendingApproval(newApproval());
    const outcome = await waiter({}).waitForDecision(rec.approval_id, {
      signal: AbortSignal.abort(),
      expiresAt: rec.expires_at,
    });
    expect(outcome.kind).toBe('cancelled');
    expect((await store.get(rec.approval_id))?.status).toBe('cancelled');
  });

  it('sets pending → expired (timed_out) at expires_at by its own timer', async () => {
    const rec = await store.createPendingApproval(newApproval({ waitMs: 300 }));
    const outcome = await waiter({ pollMs: NEVER }).waitForDecision(rec.approval_id, {
      signal: new AbortController().signal,
      expiresAt: rec.expires_at,
    });
    expect(outcome.kind).toBe('expired');
    expect(outcome.record).toMatchObject({ status: 'expired', source: 'timed_out', decided_by: null });
  });

  it('expires on the Redis clock even when its own clock is far behind (polling)', async () => {
    const rec = await store.createPendingApproval(newApproval({ waitMs: 300 }));
    const outcome = await waiter({ pollMs: 50 }).waitForDecision(rec.approval_id, {
      signal: new AbortController().signal,
      expiresAt: rec.expires_at + NEVER, // a skewed local estimate: the local timer never fires in time
    });
    expect(outcome.kind).toBe('expired');
  });

  it('reports undeliverable when the gateway could not post the prompt', async () => {
    const rec = await store.createPendingApproval(newApproval());
    const wait = waiter({ pollMs: NEVER }, true).waitForDecision(rec.approval_id, {
      signal: new AbortController().signal,
      expiresAt: rec.expires_at,
    });
    await waitFor(() => subscribed(rec.approval_id), 10_000, 'the waiter subscription');
    expect(await gateway.markUndeliverable(rec.approval_id)).toBe(true);
    const outcome = await wait;
    expect(outcome.kind).toBe('undeliverable');
    expect(outcome.record?.source).toBe('unreachable');
  });

  it('reports missing when the record vanishes', async () => {
    const rec = await store.createPendingApproval(newApproval());
    const wait = waiter({ pollMs: 50 }).waitForDecision(rec.approval_id, {
      signal: new AbortController().signal,
      expiresAt: rec.expires_at,
    });
    await admin.del(keys.record(rec.approval_id));
    expect(await wait).toEqual({ kind: 'missing', record: null });
  });
});

describe('§14 decision log lines', () => {
  it('logs every outcome at info with the §14 fields and never the raw arguments', async () => {
    const rec = await store.createPendingApproval(
      newApproval({ agent: 'coder', caller: 'main', runId: 'run-77' }),
    );
    const wait = waiter({ pollMs: 50 }).waitForDecision(rec.approval_id, {
      signal: new AbortController().signal,
      expiresAt: rec.expires_at,
    });
    await gateway.decide(rec.approval_id, 'deny', operator);
    await wait;
    const line = lines.map((l) => JSON.parse(l)).find((l) => l.approval_id === rec.approval_id);
    expect(line).toEqual({
      level: 30,
      time: line.time,
      msg: 'approval decided',
      approval_id: rec.approval_id,
      tool: 'shell',
      args_summary: 'command: rm -rf /tmp/x, api_key: [redacted]',
      agent: 'coder',
      caller: 'main',
      run_id: 'run-77',
      decision: 'deny',
      decided_by: operator,
      source: 'operator',
    });
    expect(lines.join('\n')).not.toContain('sk-raw-secret-value');

    const quiet = await store.createPendingApproval(newApproval({ waitMs: 100 }));
    await waiter({ pollMs: 50 }).waitForDecision(quiet.approval_id, {
      signal: new AbortController().signal,
      expiresAt: quiet.expires_at,
    });
    const timedOut = lines.map((l) => JSON.parse(l)).find((l) => l.approval_id === quiet.approval_id);
    expect(timedOut).toMatchObject({ decision: 'deny', decided_by: null, source: 'timed_out' });
    expect(timedOut).not.toHaveProperty('caller');
  });
});
