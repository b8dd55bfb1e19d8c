// A `baton worker` SIGKILLed while its run waits for an approval (approvals.md §10 lifecycle 6-7): its heartbeat
// stops, so once it is 30 s old no press decides (late text, nothing runs) and the reaper expires the record.
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { STALE_HEARTBEAT_MS } from '../../../src/approval/approval-store.ts';
import { editReapedCard } from '../../../src/approval/expired-card.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { startDelegateReaper } from '../../../src/delegation/delegate-reaper.ts';
import { createApprovalDelivery } from '../../../src/queue/approval-delivery.ts';
import { spaceOf } from '../../helpers/key-space.ts';
import { waitFor } from '../../helpers/wait.ts';
import { createOpsLane, LATE, OPS_LEAD, type OpsLane } from './ops-lane.ts';

let lane: OpsLane;
beforeAll(async () => {
  lane = await createOpsLane('ap-killed', 1);
}, 60_000);
afterAll(() => lane?.close());

/** Milliseconds since the record's waiter last beat, on the Redis clock (the one the decide script reads). */
async function heartbeatAge(id: string): Promise<number> {
  const [rec, [secs, micros]] = await Promise.all([lane.store.get(id), lane.redis.time()]);
  return Number(secs) * 1000 + Math.floor(Number(micros) / 1000) - (rec?.waiter_heartbeat_at ?? 0);
}

describe('a worker killed while its run waits for an approval', () => {
  it('leaves a record no press can decide; the reaper expires it; nothing runs', async () => {
    onTestFailed(() => console.log(lane.dump()));
    await lane.ask('killed');
    const card = await lane.card('killed');
    expect(await lane.store.get(card.approvalId)).toMatchObject({ status: 'pending' });
    lane.worker.kill('SIGKILL');
    await lane.worker.exited;
    // The last beat was at most 10 s before the kill: stale within STALE_HEARTBEAT_MS of it.
    await waitFor(
      async () => (await heartbeatAge(card.approvalId)) >= STALE_HEARTBEAT_MS,
      STALE_HEARTBEAT_MS + 15_000,
      'the waiter heartbeat to go stale',
      250,
    );
    let since = lane.slack.calls.length;
    expect(await lane.press(0, card, 'approve')).toBe(200);
    expect(await lane.ephemerals(OPS_LEAD, since, 1)).toEqual([LATE]);
    expect(await lane.store.get(card.approvalId)).toMatchObject({ status: 'pending', decided_by: null });

    // The supervision reaper's pass, as every worker runs it (each 60 s, so one pass here, on the same Redis).
    const reaper = startDelegateReaper({
      redis: lane.redis,
      prefix: lane.prefix,
      delegation: {
        jobState: () => Promise.reject(new Error('no background task is in flight')),
        publishCancel: () => Promise.reject(new Error('no background task is in flight')),
      },
      logger: createSilentLogger(),
      approvals: lane.store,
      onApprovalExpired: editReapedCard({
        store: lane.store,
        delivery: createApprovalDelivery(lane.redis, spaceOf(lane.prefix)),
        logger: createSilentLogger(),
      }),
      intervalMs: 600_000,
    });
    await reaper.runOnce().finally(() => reaper.close());
    expect(await lane.store.get(card.approvalId)).toMatchObject({
      status: 'expired',
      source: 'timed_out',
      decided_by: null,
    });
    expect((await lane.store.listPending()).map((r) => r.approval_id)).not.toContain(card.approvalId);
    // Nobody waits on it any more, so the reaper has the card edited: the outcome shown, the buttons gone.
    await waitFor(() => card.message.versions.length >= 2, 15_000, 'the reaped card to be edited');
    const edited = card.message.versions.at(-1);
    expect(JSON.stringify(edited?.blocks)).not.toContain('"actions"');
    expect(edited?.text).toContain('Expired');

    since = lane.slack.calls.length;
    expect(await lane.press(0, card, 'approve')).toBe(200);
    expect(await lane.ephemerals(OPS_LEAD, since, 1)).toEqual([LATE]);
    expect(await lane.store.get(card.approvalId)).toMatchObject({ status: 'expired' });
    expect(lane.ran('killed')).toBe(0);
    expect(lane.toolResults('killed')).toEqual([]);
  }, 75_000);
});
