// GET /api/approvals and /api/approvals/audit through the real ops server, records written by the real store;
// and the approval metrics those records produce on /metrics.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApprovalStore, createApprovalStore } from '../../../src/approval/approval-store.ts';
import { approvalKeys } from '../../../src/approval/record.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createMetricsStore, type MetricsStore } from '../../../src/fleet/metrics-store.ts';
import { testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { waitFor } from '../../helpers/wait.ts';
import { newApproval, redisNow } from '../approval/helpers.ts';
import { jsonOf, type OpsHarness, startOpsHarness } from './ops-harness.ts';

const TOKEN = 'tok-approvals-7c1e9d';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const prefix = uniquePrefix('gateway-approvals');
const keys = approvalKeys(prefix);
// Longer than a summary shows (600 code points): the raw value can never appear whole.
const LONG = `echo ${'x'.repeat(1000)}`;
const RAW_ARGS = { command: LONG, api_key: 'sk-raw-secret-value' };
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const operator = { channel: 'telegram.ops', user: '42' };

let h: OpsHarness;
const workerConn = testRedis();
const gatewayConn = testRedis();
let workerMetrics: MetricsStore;
let gatewayMetrics: MetricsStore;
let worker: ApprovalStore;
let gateway: ApprovalStore;

beforeAll(async () => {
  h = await startOpsHarness({
    prefix,
    toml: `[gateway]\nhost = "127.0.0.1"\napi_token = "${TOKEN}"`,
  });
  const logger = createSilentLogger();
  // Two processes' stores, each with its own metrics buffer: the counts must add up fleet-wide in Redis.
  workerMetrics = createMetricsStore(workerConn, prefix, logger);
  gatewayMetrics = createMetricsStore(gatewayConn, prefix, logger);
  worker = createApprovalStore({ redis: workerConn, prefix, logger, metrics: workerMetrics });
  gateway = createApprovalStore({ redis: gatewayConn, prefix, logger, metrics: gatewayMetrics });
});
afterAll(async () => {
  await h.close();
  workerConn.disconnect();
  gatewayConn.disconnect();
});

async function list(path: string): Promise<Record<string, unknown>[]> {
  const res = await h.get(path, AUTH);
  const text = await res.text();
  expect(res.status, text).toBe(200);
  // Never raw arguments, a secret-keyed value, or a pending reply token, anywhere in a response.
  expect(text).not.toContain('sk-raw-secret-value');
  expect(text).not.toContain(LONG);
  expect(text).not.toContain('"args"');
  expect(text).not.toContain('reply_token');
  return (JSON.parse(text) as { approvals: Record<string, unknown>[] }).approvals;
}

/** Waits until the Redis clock has moved past `ms`, so the next settlement sorts strictly after the last one. */
async function clockPast(ms: number): Promise<void> {
  await waitFor(async () => (await redisNow(h.redis)) > ms, 5_000, 'the Redis clock to move on');
}

const ids = (rows: Record<string, unknown>[]) => rows.map((r) => r.approval_id);

async function scrape(): Promise<string> {
  await Promise.all([workerMetrics.flush(), gatewayMetrics.flush()]);
  const res = await h.get('/metrics', AUTH); // gateway.health_detail defaults to "token"
  expect(res.status).toBe(200);
  return res.text();
}

const sampleOf = (text: string, series: string): number => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
};

describe('approvals API', () => {
  it('needs the bearer token (401 without it or with a wrong one)', async () => {
    for (const path of ['/api/approvals', '/api/approvals/audit']) {
      for (const headers of [{}, { authorization: 'Bearer nope' }] as Record<string, string>[]) {
        const res = await h.get(path, headers);
        expect(res.status).toBe(401);
        expect(await jsonOf(res)).toEqual({ error: 'unauthorized' });
      }
    }
  });

  it('lists pending approvals oldest first with the §10 fields and the prompt text, never the raw arguments', async () => {
    const first = await worker.createPendingApproval(newApproval({ args: RAW_ARGS, waitMs: 120_000 }));
    await clockPast(first.created_at); // a later millisecond: records created in the same one come in id order
    const second = await worker.createPendingApproval(
      newApproval({
        tool: 'file_write',
        args: { path: '/srv/a.txt', content: 'hi' },
        agent: 'coder',
        caller: 'main',
        runId: 'run-child',
        rootRunId: 'run-root',
        channel: 'slack.ops',
        destination: { chat: 'C42', thread: '1700.1' },
      }),
    );
    const rows = await list('/api/approvals');
    expect(ids(rows)).toEqual([first.approval_id, second.approval_id]);
    const [a, b] = rows;
    expect(a).toEqual({
      approval_id: first.approval_id,
      status: 'pending',
      tool: 'shell',
      args_summary: first.args_summary,
      agent: 'main',
      caller: null,
      run_id: 'run-1',
      root_run_id: 'run-1',
      channel: 'telegram.ops',
      destination: { chat: '100', thread: null },
      created_at: new Date(first.created_at).toISOString(),
      expires_at: new Date(first.created_at + 120_000).toISOString(),
      decided_by: null,
      decided_at: null,
      source: null,
      card: `APPROVAL REQUIRED\nTool: shell\nAgent: main\nArgs: ${first.args_summary}`,
    });
    expect(first.args_summary).toContain('api_key: [redacted]');
    expect(b).toMatchObject({
      tool: 'file_write',
      agent: 'coder',
      caller: 'main',
      run_id: 'run-child',
      root_run_id: 'run-root',
      channel: 'slack.ops',
      destination: { chat: 'C42', thread: '1700.1' },
      card: 'APPROVAL REQUIRED\nTool: file_write\nAgent: coder (delegated by main)\nArgs: path: /srv/a.txt, content: hi',
    });
    expect(JSON.stringify(rows)).not.toContain(first.reply_token);
    expect(JSON.stringify(rows)).not.toContain(second.reply_token);
    expect((await list('/api/approvals?limit=1')).length).toBe(1);
    await gateway.decide(first.approval_id, 'deny', operator);
    await gateway.decide(second.approval_id, 'deny', operator);
  });

  it('moves decided and expired records to the audit trail, newest first, with who decided and why', async () => {
    const approved = await worker.createPendingApproval(newApproval({ args: RAW_ARGS }));
    const expiring = await worker.createPendingApproval(newApproval({ tool: 'file_read', waitMs: 100 }));
    const cancelled = await worker.createPendingApproval(newApproval({ tool: 'http_request' }));
    expect(await gateway.decide(approved.approval_id, 'always', operator)).toEqual({
      kind: 'decided',
      status: 'always',
    });
    await clockPast((await gateway.get(approved.approval_id))!.decided_at!);
    await waitFor(
      async () => (await worker.expireIfDue(expiring.approval_id)).kind === 'ok',
      10_000,
      'the short approval to expire',
    );
    await clockPast((await gateway.get(expiring.approval_id))!.decided_at!);
    expect((await worker.cancel(cancelled.approval_id)).kind).toBe('ok');

    const pending = ids(await list('/api/approvals'));
    for (const r of [approved, expiring, cancelled]) expect(pending).not.toContain(r.approval_id);
    const audit = await list('/api/approvals/audit');
    // Newest settlement first: cancelled, then expired, then approved.
    const mine = audit.filter((r) =>
      [approved, expiring, cancelled].some((x) => x.approval_id === r.approval_id),
    );
    expect(ids(mine)).toEqual([cancelled.approval_id, expiring.approval_id, approved.approval_id]);
    const [c, e, a] = mine;
    expect(a).toMatchObject({ status: 'always', source: 'operator', decided_by: operator, tool: 'shell' });
    expect(e).toMatchObject({ status: 'expired', source: 'timed_out', decided_by: null, tool: 'file_read' });
    expect(c).toMatchObject({ status: 'cancelled', source: 'cancelled', decided_by: null });
    for (const row of mine) {
      expect(row.decided_at).toMatch(ISO);
      expect(row).not.toHaveProperty('card');
    }
    expect(Date.parse(String(c!.decided_at))).toBeGreaterThanOrEqual(Date.parse(String(e!.decided_at)));
  });

  it('skips a record it cannot read and still lists the rest', async () => {
    const good = await worker.createPendingApproval(newApproval());
    const bad = randomUUID();
    await h.redis.hset(keys.record(bad), 'status', 'pending', 'tool', 'not json', 'created_at', 'x');
    await h.redis.zadd(keys.pending, 0, bad); // score 0: it sorts first
    const rows = await list('/api/approvals');
    expect(ids(rows)).toContain(good.approval_id);
    expect(ids(rows)).not.toContain(bad);
    await gateway.decide(good.approval_id, 'approve', operator);
  });

  it('refuses a bad limit with the spec-shaped error', async () => {
    for (const q of ['0', '1001', 'abc', '1.5']) {
      const res = await h.get(`/api/approvals/audit?limit=${q}`, AUTH);
      expect(res.status).toBe(400);
      expect(await jsonOf(res)).toEqual({
        error: "invalid query parameter 'limit': expected an integer from 1 to 1000",
      });
    }
  });
});

describe('approval metrics', () => {
  it('counts prompts by channel and settlements by status with the prompt-to-decision time, fleet-wide', async () => {
    const before = await scrape();
    const prompts = (t: string) => sampleOf(t, 'baton_approval_prompts_total{channel="discord.ops"}');
    const settled = (t: string, s: string) =>
      sampleOf(t, `baton_approval_decision_seconds_count{outcome="${s}"}`);
    const ch = { channel: 'discord.ops' };
    const recs = await Promise.all(
      Array.from({ length: 5 }, () => worker.createPendingApproval(newApproval(ch))),
    );
    const [r1, r2, r3, r4, r5] = recs.map((r) => r.approval_id) as [string, string, string, string, string];
    await gateway.decide(r1, 'approve', operator);
    await gateway.decide(r2, 'deny', operator);
    await gateway.decide(r3, 'always', operator);
    await worker.markUndeliverable(r4);
    await worker.cancel(r5);
    // A second decide on a settled record changes nothing, so it must count nothing.
    await gateway.decide(r1, 'deny', operator);
    await worker.cancel(r1);

    const after = await scrape();
    expect(prompts(after) - prompts(before)).toBe(5);
    const delta = (s: string) => settled(after, s) - settled(before, s);
    expect(['approved', 'denied', 'always', 'undeliverable', 'cancelled'].map(delta)).toEqual([
      1, 1, 1, 1, 1,
    ]);
    expect(after).toMatch(/^# TYPE baton_approval_prompts_total counter$/m);
    expect(after).toMatch(/^# TYPE baton_approval_decision_seconds histogram$/m);
    // Decided within the test: well inside the 60 s bucket, and cumulative up to +Inf.
    const le = (b: string) =>
      sampleOf(after, `baton_approval_decision_seconds_bucket{outcome="always",le="${b}"}`);
    expect(le('60')).toBe(le('+Inf'));
    expect(le('+Inf')).toBe(settled(after, 'always'));
    const sum = sampleOf(after, 'baton_approval_decision_seconds_sum{outcome="always"}');
    expect(sum).toBeGreaterThanOrEqual(0);
    expect(sum).toBeLessThan(60 * settled(after, 'always'));
  });
});
