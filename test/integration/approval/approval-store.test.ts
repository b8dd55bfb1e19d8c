// Pending approvals in real Redis (approvals.md §10, §11, §14): the CAS, token index, audit trail and reaper.
import { afterAll, describe, expect, it } from 'vitest';
import { AUDIT_TTL_MS } from '../../../src/approval/approval-settle.ts';
import { createApprovalStore } from '../../../src/approval/approval-store.ts';
import { approvalKeys, encodeApprovalFields } from '../../../src/approval/record.ts';
import { capturingLogger } from '../../helpers/providers.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { waitFor } from '../../helpers/wait.ts';
import { newApproval, redisNow } from './helpers.ts';

const prefix = uniquePrefix('approval-store');
const keys = approvalKeys(prefix);
const admin = testRedis();
const workerConn = testRedis();
const gatewayA = testRedis();
const gatewayB = testRedis();
const { logger, lines } = capturingLogger();
const worker = createApprovalStore({ redis: workerConn, prefix, logger });
const gwA = createApprovalStore({ redis: gatewayA, prefix, logger });
const gwB = createApprovalStore({ redis: gatewayB, prefix, logger });
const operator = { channel: 'telegram.ops', user: '42' };
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Sets the waiter heartbeat `ageMs` into the past on the Redis clock (a waiter that stopped beating). */
async function ageHeartbeat(id: string, ageMs: number): Promise<void> {
  await admin.hset(keys.record(id), 'waiter_heartbeat_at', String((await redisNow(admin)) - ageMs));
}

afterAll(async () => {
  await deletePrefix(admin, prefix);
  for (const r of [admin, workerConn, gatewayA, gatewayB]) await r.quit();
});

describe('creating a pending approval', () => {
  it('writes the record and token index with a UUID v4 id, a 6-char token and no raw arguments', async () => {
    const rec = await worker.createPendingApproval(newApproval({ caller: 'boss', waitMs: 90_000 }));
    expect(rec.approval_id).toMatch(UUID_V4);
    expect(rec.reply_token).toMatch(/^[a-z0-9]{6}$/);
    expect(rec).toMatchObject({
      status: 'pending',
      tool: 'shell',
      args_summary: 'command: rm -rf /tmp/x, api_key: [redacted]',
      agent: 'main',
      caller: 'boss',
      channel: 'telegram.ops',
      destination: { chat: '100', thread: null },
      source: null,
      decided_by: null,
    });
    expect(rec.expires_at - rec.created_at).toBe(90_000);
    expect(await gwA.get(rec.approval_id)).toEqual(rec);
    const stored = JSON.stringify(await admin.hgetall(keys.record(rec.approval_id)));
    expect(stored).not.toContain('sk-raw-secret-value');
    expect(await admin.get(keys.token('telegram.ops', '100', rec.reply_token))).toBe(rec.approval_id);
    expect(await admin.zscore(keys.pending, rec.approval_id)).not.toBeNull();
    // The pending record outlives its expiry; the token index expires with it.
    const recordTtl = await admin.pttl(keys.record(rec.approval_id));
    const tokenTtl = await admin.pttl(keys.token('telegram.ops', '100', rec.reply_token));
    expect(recordTtl).toBeGreaterThanOrEqual(90_000);
    expect(Math.abs(recordTtl - tokenTtl)).toBeLessThan(5_000);
  });

  it('draws distinct tokens for the approvals of one chat', async () => {
    const recs = await Promise.all(
      Array.from({ length: 20 }, () => worker.createPendingApproval(newApproval())),
    );
    expect(new Set(recs.map((r) => r.reply_token)).size).toBe(20);
    expect(new Set(recs.map((r) => r.approval_id)).size).toBe(20);
  });
});

describe('deciding (one Lua compare-and-set)', () => {
  it('lets exactly one of two simultaneous decisions from two gateways win', async () => {
    for (let i = 0; i < 15; i++) {
      const rec = await worker.createPendingApproval(newApproval());
      const [a, b] = await Promise.all([
        gwA.decide(rec.approval_id, 'approve', operator),
        gwB.decide(rec.approval_id, 'deny', { channel: 'telegram.ops', user: '43' }),
      ]);
      const kinds = [a.kind, b.kind].sort();
      expect(kinds).toEqual(['decided', 'late']);
      const winner = a.kind === 'decided' ? a : b;
      const loser = a.kind === 'late' ? a : b;
      expect(loser).toEqual({ kind: 'late', reason: 'not_pending' });
      const stored = await admin.hget(keys.record(rec.approval_id), 'status');
      expect(winner.kind === 'decided' && winner.status).toBe(stored);
    }
  });

  it('records the decision, publishes it, moves it to the audit trail and keeps it 7 days', async () => {
    const rec = await worker.createPendingApproval(newApproval());
    const sub = testRedis();
    const got: string[] = [];
    sub.on('message', (_ch: string, msg: string) => got.push(msg));
    await sub.subscribe(keys.decided(rec.approval_id));
    expect(await gwA.decide(rec.approval_id, 'always', operator)).toEqual({
      kind: 'decided',
      status: 'always',
    });
    await waitFor(() => got.length === 1, 10_000, 'the published decision');
    expect(got).toEqual(['always']);
    await sub.quit();
    const after = await gwA.get(rec.approval_id);
    expect(after).toMatchObject({ status: 'always', source: 'operator', decided_by: operator });
    expect(after?.decided_at).toBeGreaterThanOrEqual(rec.created_at);
    for (const key of [keys.record(rec.approval_id), keys.token('telegram.ops', '100', rec.reply_token)]) {
      const ttl = await admin.pttl(key);
      expect(ttl).toBeGreaterThan(AUDIT_TTL_MS - 60_000);
      expect(ttl).toBeLessThanOrEqual(AUDIT_TTL_MS);
    }
    expect(await admin.zscore(keys.pending, rec.approval_id)).toBeNull();
    expect(await admin.zscore(keys.audit, rec.approval_id)).not.toBeNull();
  });

  it('refuses a decision after expires_at, and leaves the record to its waiter', async () => {
    const rec = await worker.createPendingApproval(newApproval({ waitMs: 150 }));
    await waitFor(
      async () => (await redisNow(admin)) >= rec.expires_at,
      10_000,
      'the expiry on the Redis clock',
    );
    expect(await gwA.decide(rec.approval_id, 'approve', operator)).toEqual({
      kind: 'late',
      reason: 'expired',
    });
    expect((await gwA.get(rec.approval_id))?.status).toBe('pending');
  });

  it('refuses a decision after the waiter cancelled', async () => {
    const rec = await worker.createPendingApproval(newApproval());
    expect((await worker.cancel(rec.approval_id)).kind).toBe('ok');
    expect(await gwA.decide(rec.approval_id, 'approve', operator)).toEqual({
      kind: 'late',
      reason: 'not_pending',
    });
    expect(await gwA.get(rec.approval_id)).toMatchObject({
      status: 'cancelled',
      source: 'cancelled',
      decided_by: null,
    });
  });

  it('refuses a decision once the waiter heartbeat is 30 s old, and accepts it after a refresh', async () => {
    const rec = await worker.createPendingApproval(newApproval());
    await ageHeartbeat(rec.approval_id, 30_000);
    expect(await gwA.decide(rec.approval_id, 'approve', operator)).toEqual({
      kind: 'late',
      reason: 'stale_waiter',
    });
    expect((await gwA.get(rec.approval_id))?.status).toBe('pending');
    await ageHeartbeat(rec.approval_id, 29_000);
    expect(await worker.heartbeat(rec.approval_id)).toBe(true);
    expect(await gwA.decide(rec.approval_id, 'approve', operator)).toEqual({
      kind: 'decided',
      status: 'approved',
    });
    expect(await worker.heartbeat(rec.approval_id)).toBe(false);
  });

  it('resolves nothing for an unknown or tampered id, and creates no key for it', async () => {
    for (const id of ['not-a-uuid', '../approval:x', crypto.randomUUID()]) {
      expect(await gwA.decide(id, 'approve', operator)).toEqual({ kind: 'late', reason: 'unknown' });
      expect(await gwA.get(id)).toBeNull();
      expect(await gwA.markUndeliverable(id)).toBe(false);
      expect(await gwA.setMessageRef(id, { chat: '100', messageId: '1' })).toBe(false);
    }
    const uuid = crypto.randomUUID();
    await gwA.setMessageRef(uuid, { chat: '100', messageId: '1' });
    expect(await admin.exists(keys.record(uuid))).toBe(0);
  });
});

describe('gateway bookkeeping', () => {
  it('marks an approval undeliverable once, and keeps the message ref', async () => {
    const rec = await worker.createPendingApproval(newApproval());
    expect(await gwA.setMessageRef(rec.approval_id, { chat: '100', messageId: '77' })).toBe(true);
    expect(await gwA.markUndeliverable(rec.approval_id)).toBe(true);
    expect(await gwB.markUndeliverable(rec.approval_id)).toBe(false);
    expect(await gwA.get(rec.approval_id)).toMatchObject({
      status: 'undeliverable',
      source: 'unreachable',
      message_ref: { chat: '100', messageId: '77' },
    });
  });

  it('finds a record by reply token in its channel and chat only, case-insensitively', async () => {
    const rec = await worker.createPendingApproval(
      newApproval({ destination: { chat: '200', thread: '9' } }),
    );
    const t = rec.reply_token;
    expect((await gwA.findByReplyToken('telegram.ops', '200', t.toUpperCase()))?.approval_id).toBe(
      rec.approval_id,
    );
    expect(await gwA.findByReplyToken('telegram.ops', '201', t)).toBeNull();
    expect(await gwA.findByReplyToken('telegram.other', '200', t)).toBeNull();
    expect(await gwA.findByReplyToken('telegram.ops', '200', 'zzzzz')).toBeNull();
    expect(await gwA.findByReplyToken('telegram.ops', '200', `${t}x`)).toBeNull();
    // A decided record stays findable, so a late reply gets the late-press text.
    await gwA.decide(rec.approval_id, 'deny', operator);
    expect((await gwA.findByReplyToken('telegram.ops', '200', t))?.status).toBe('denied');
  });
});

describe('listing and the audit trail', () => {
  it('skips and logs a bad record instead of throwing', async () => {
    const good = await worker.createPendingApproval(newApproval({ destination: { chat: '300' } }));
    const badId = crypto.randomUUID();
    await admin.hset(keys.record(badId), 'status', 'pending', 'tool', '{not json', 'expires_at', '1');
    await admin.zadd(keys.pending, 0, badId);
    const pending = await gwA.listPending(1000);
    expect(pending.map((r) => r.approval_id)).toContain(good.approval_id);
    expect(pending.map((r) => r.approval_id)).not.toContain(badId);
    expect(await gwA.get(badId)).toBeNull();
    const logged = lines.map((l) => JSON.parse(l)).filter((l) => l.key === keys.record(badId));
    expect(logged[0]?.msg).toBe('unreadable approval record skipped');
    // The reaper's pass survives it too (no heartbeat: nothing to judge, the id just leaves the pending set).
    await expect(gwA.reapStale()).resolves.toBeTypeOf('number');
  });

  it('stores the requester and validates it when read back: a malformed one is skipped and logged', async () => {
    const requester = { channel: 'telegram.dm', user: '42' };
    const rec = await worker.createPendingApproval(newApproval({ destination: { chat: '301' }, requester }));
    expect((await gwA.get(rec.approval_id))?.requester).toEqual(requester);
    // Written before the field existed: no requester.
    const old = await worker.createPendingApproval(newApproval({ destination: { chat: '302' } }));
    await admin.hdel(keys.record(old.approval_id), 'requester');
    expect((await gwA.get(old.approval_id))?.requester).toBeNull();
    await admin.hset(keys.record(rec.approval_id), 'requester', JSON.stringify({ channel: 'telegram.dm' }));
    expect(await gwA.get(rec.approval_id)).toBeNull();
    const logged = lines.map((l) => JSON.parse(l)).filter((l) => l.key === keys.record(rec.approval_id));
    expect(logged[0]?.msg).toBe('unreadable approval record skipped');
  });

  it('lists settled records newest first', async () => {
    const a = await worker.createPendingApproval(newApproval());
    const b = await worker.createPendingApproval(newApproval());
    await gwA.decide(a.approval_id, 'approve', operator);
    await waitFor(
      async () => (await redisNow(admin)) > ((await gwA.get(a.approval_id))?.decided_at ?? 0),
      5_000,
      'the clock',
    );
    await gwA.decide(b.approval_id, 'deny', operator);
    const audit = (await gwA.listAudit(1000)).map((r) => r.approval_id);
    expect(audit.indexOf(b.approval_id)).toBeLessThan(audit.indexOf(a.approval_id));
    expect(audit.indexOf(a.approval_id)).toBeGreaterThanOrEqual(0);
  });
});

describe('the reaper pass', () => {
  it('expires pending records whose waiter heartbeat is stale, and only those', async () => {
    const dead = await worker.createPendingApproval(newApproval());
    const alive = await worker.createPendingApproval(newApproval());
    await ageHeartbeat(dead.approval_id, 31_000);
    await ageHeartbeat(alive.approval_id, 20_000);
    expect(await gwB.reapStale()).toBeGreaterThanOrEqual(1);
    expect(await gwB.get(dead.approval_id)).toMatchObject({ status: 'expired', source: 'timed_out' });
    expect((await gwB.get(alive.approval_id))?.status).toBe('pending');
    expect(await admin.zscore(keys.pending, dead.approval_id)).toBeNull();
    expect(await admin.zscore(keys.pending, alive.approval_id)).not.toBeNull();
    expect(await admin.pttl(keys.record(dead.approval_id))).toBeGreaterThan(AUDIT_TTL_MS - 60_000);
  });
});

it('stores exactly the §10 fields, plus how its card is drawn (reasons, route prompt, group chat) and the requester', async () => {
  const rec = await worker.createPendingApproval(newApproval());
  expect(Object.keys(await admin.hgetall(keys.record(rec.approval_id))).sort()).toEqual(
    [
      'approval_id',
      'reply_token',
      'status',
      'tool',
      'args_summary',
      'agent',
      'caller',
      'run_id',
      'root_run_id',
      'channel',
      'destination',
      'reasons',
      'route_prompt',
      'group',
      'requester',
      'message_ref',
      'created_at',
      'expires_at',
      'waiter_heartbeat_at',
      'decided_by',
      'decided_at',
      'source',
    ].sort(),
  );
  expect(encodeApprovalFields({ status: 'pending', tool: 'x' })).toEqual([
    'status',
    'pending',
    'tool',
    '"x"',
  ]);
});
