// The /api routes and error handling: session abort over the abort bus, task listing, JSON errors.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTaskRecords, type TaskRecord, taskKey } from '../../../src/delegation/task-records.ts';
import { createRunningTurns } from '../../../src/fleet/running-turns.ts';
import { spaceOf } from '../../helpers/key-space.ts';
import { uniquePrefix } from '../../helpers/redis.ts';
import { jsonOf, type OpsHarness, startOpsHarness } from './ops-harness.ts';

const prefix = uniquePrefix('gateway-api');
let h: OpsHarness;

beforeAll(async () => {
  h = await startOpsHarness({ prefix });
});
afterAll(() => h.close());

/** Resolves when `signal` aborts, rejects after `ms` (a deadline, not a settle-sleep). */
function abortedWithin(signal: AbortSignal, ms: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return resolve(signal.reason);
    const timer = setTimeout(() => reject(new Error(`not aborted within ${ms} ms`)), ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve(signal.reason);
    });
  });
}

describe('POST /api/sessions/:id/abort', () => {
  it('aborts the running turn of that session through Redis pub/sub and answers 202 with its run id', async () => {
    const session = 'telegram.home:42:7';
    const runId = randomUUID();
    const running = createRunningTurns(h.redis, spaceOf(prefix));
    await running.markRunning(session, runId, 'worker-1');
    const turn = new AbortController();
    const other = new AbortController();
    h.abortBus.register('session', session, turn);
    h.abortBus.register('session', 'telegram.home:42:8', other);

    const res = await h.post(`/api/sessions/${encodeURIComponent(session)}/abort`);
    expect(res.status).toBe(202);
    expect(await jsonOf(res)).toEqual({ aborted: true, run_id: runId });
    const reason = await abortedWithin(turn.signal, 2000);
    expect(reason).toBeInstanceOf(Error);
    expect((reason as Error).message).toBe('Cancelled');
    expect(other.signal.aborted).toBe(false);
    await running.markDone(session, runId);
  });

  it('accepts an empty JSON body', async () => {
    const session = 'cron-abc';
    await createRunningTurns(h.redis, spaceOf(prefix)).markRunning(session, 'r-1', 'w');
    const res = await h.post(`/api/sessions/${session}/abort`, {
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(202);
  });

  it('is 404 with the spec-shaped error when the session has no running turn', async () => {
    const controller = new AbortController();
    h.abortBus.register('session', 'slack.ops:C1:1.2', controller);
    const res = await h.post(`/api/sessions/${encodeURIComponent('slack.ops:C1:1.2')}/abort`);
    expect(res.status).toBe(404);
    expect(await jsonOf(res)).toEqual({ error: "no running turn for session 'slack.ops:C1:1.2'" });
    expect(controller.signal.aborted).toBe(false);
  });
});

const ago = (secs: number) => new Date(Date.now() - secs * 1000).toISOString();

function record(over: Partial<TaskRecord>): TaskRecord {
  return {
    task_id: randomUUID(),
    kind: 'delegate',
    agent: 'researcher',
    chain: ['main'],
    mode: 'bounded',
    status: 'running',
    output: null,
    error: null,
    depth: 1,
    sender: 'telegram.home:42',
    owner: null,
    heartbeat_at: null,
    progress: null,
    timeout_budget_secs: 300,
    parent_tool_call_id: 'call-1',
    started_at: ago(10),
    finished_at: null,
    ...over,
  };
}

describe('GET /api/tasks', () => {
  it('lists delegate records newest first, with progress and elapsed_secs computed on read', async () => {
    const tasks = createTaskRecords(h.redis, prefix);
    const progress = {
      last_activity_at: ago(5),
      iterations: 3,
      tools_completed: 2,
      last_tool: { name: 'shell', started_at: ago(6), finished_at: ago(5), success: true },
      timeout_budget_secs: 300,
      recent_tools: [],
      receipt_tail: [],
      elapsed_secs: 0,
    };
    const running = record({ started_at: ago(90), owner: 'host:1:ab', progress });
    const done = record({ started_at: ago(300), output: 'the secret report', agent: 'writer' });
    const queued = record({ started_at: ago(20) });
    await tasks.create(running);
    await tasks.create(done);
    await tasks.create(queued);
    await tasks.finish(done.task_id, 'completed', { finished_at: ago(200), output: 'the secret report' });
    await tasks.create(record({ kind: 'subagent', started_at: ago(1) }));
    await h.redis.set(taskKey(prefix, 'not-a-hash'), 'x');
    await h.redis.hset(`${taskKey(prefix, running.task_id)}:extra`, 'kind', '"delegate"');

    const res = await h.get('/api/tasks');
    expect(res.status).toBe(200);
    const body = await jsonOf(res);
    expect(body.tasks.map((t: { task_id: string }) => t.task_id)).toEqual([
      queued.task_id,
      running.task_id,
      done.task_id,
    ]);
    const [q, r, d] = body.tasks;
    expect(q.progress).toBeNull();
    expect(q.elapsed_secs).toBeGreaterThanOrEqual(20);
    expect(r.status).toBe('running');
    expect(r.elapsed_secs).toBeGreaterThanOrEqual(90);
    expect(r.elapsed_secs).toBeLessThan(120);
    expect(r.progress).toEqual({ ...progress, elapsed_secs: r.elapsed_secs });
    expect(d.status).toBe('completed');
    expect(d.elapsed_secs).toBe(100);
    expect(d.output).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain('the secret report');

    const onlyRunning = await jsonOf(await h.get('/api/tasks?status=running&limit=1'));
    expect(onlyRunning.tasks.map((t: { task_id: string }) => t.task_id)).toEqual([queued.task_id]);
  });

  it('rejects a bad status or limit with a JSON error', async () => {
    const badStatus = await h.get('/api/tasks?status=bogus');
    expect(badStatus.status).toBe(400);
    expect((await jsonOf(badStatus)).error).toMatch(
      /^invalid query parameter 'status': expected one of "running"/,
    );
    const badLimit = await h.get('/api/tasks?limit=0');
    expect(badLimit.status).toBe(400);
    expect(await jsonOf(badLimit)).toEqual({
      error: "invalid query parameter 'limit': expected an integer from 1 to 1000",
    });
  });
});

describe('bad input', () => {
  it('answers an unknown route with a JSON 404', async () => {
    const res = await h.get('/nope?x=1');
    expect(res.status).toBe(404);
    expect(await jsonOf(res)).toEqual({ error: 'no route for GET /nope' });
  });

  it('answers malformed JSON with a JSON 400', async () => {
    const res = await h.post('/api/sessions/s/abort', {
      body: '{"oops": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(await jsonOf(res)).toEqual({ error: 'invalid JSON body' });
  });

  it('answers an oversized body with a JSON 413, and the server keeps serving', async () => {
    const res = await h.post('/api/sessions/s/abort', {
      body: JSON.stringify({ pad: 'x'.repeat(20_000) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(await jsonOf(res)).toEqual({ error: 'request body too large (limit 16384 bytes)' });
    expect((await h.get('/healthz')).status).toBe(200);
  });

  it('answers an unsupported content type with a JSON 415', async () => {
    const res = await h.post('/api/sessions/s/abort', {
      body: 'hi',
      headers: { 'content-type': 'text/csv' },
    });
    expect(res.status).toBe(415);
    expect(typeof (await jsonOf(res)).error).toBe('string');
  });
});
