// The supervision reaper (delegate.md §11.6) expires pending approvals whose waiter died (approvals.md §10 lifecycle 6).
import { afterAll, expect, it } from 'vitest';
import { createApprovalStore } from '../../../src/approval/approval-store.ts';
import { approvalKeys } from '../../../src/approval/record.ts';
import { startDelegateReaper } from '../../../src/delegation/delegate-reaper.ts';
import { capturingLogger } from '../../helpers/providers.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { newApproval, redisNow } from './helpers.ts';

const prefix = uniquePrefix('approval-reaper');
const redis = testRedis();
const workerConn = testRedis();

afterAll(async () => {
  await deletePrefix(redis, prefix);
  await redis.quit();
  await workerConn.quit();
});

it('a reaper pass expires a dead waiter’s approval, leaves a live one, and a late press changes nothing', async () => {
  const log = capturingLogger();
  const worker = createApprovalStore({ redis: workerConn, prefix, logger: log.logger });
  const approvals = createApprovalStore({ redis, prefix, logger: log.logger });
  const dead = await worker.createPendingApproval(newApproval());
  const alive = await worker.createPendingApproval(newApproval());
  // The dead waiter last beat 31 s ago (Redis clock); the live one is within the 30 s window.
  const now = await redisNow(redis);
  await redis.hset(
    approvalKeys(prefix).record(dead.approval_id),
    'waiter_heartbeat_at',
    String(now - 31_000),
  );
  const reaper = startDelegateReaper({
    redis,
    prefix,
    delegation: { jobState: async () => 'unknown', publishCancel: async () => {} },
    logger: log.logger,
    approvals,
  });
  try {
    expect(await reaper.runOnce()).toBe(0); // no task records: approvals are logged, not counted
  } finally {
    reaper.close();
  }
  expect(await approvals.get(dead.approval_id)).toMatchObject({ status: 'expired', source: 'timed_out' });
  expect((await approvals.get(alive.approval_id))?.status).toBe('pending');
  expect(log.lines.some((l) => l.includes('reaper expired approvals whose waiter is gone'))).toBe(true);
  expect(
    await approvals.decide(dead.approval_id, 'approve', { channel: 'telegram.ops', user: '42' }),
  ).toEqual({
    kind: 'late',
    reason: 'not_pending',
  });
});
