// Background delegation end to end: BullMQ job, task record, artifact, management actions and their exact texts.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDelegateReaper } from '../../../src/delegation/delegate-reaper.ts';
import { createDelegateTasks } from '../../../src/delegation/delegate-tasks.ts';
import { taskKeys } from '../../../src/delegation/task-records.ts';
import type { DelegateWorker } from '../../../src/queue/delegate-worker.ts';
import { type AgentHarness, createAgentHarness } from '../../helpers/agent-harness.ts';
import { startHarnessDelegateWorker } from '../../helpers/delegate-worker.ts';
import { silentRunningTask } from '../../helpers/task-fixtures.ts';
import { waitFor } from '../../helpers/wait.ts';
import { DELEGATE_TOML, delegateCall } from './delegate-config.ts';
import { resultOf } from './helpers.ts';

let h: AgentHarness;
let worker: DelegateWorker;
beforeAll(async () => {
  h = await createAgentHarness('delegate-bg', DELEGATE_TOML);
  worker = startHarnessDelegateWorker(h, {
    concurrency: 4,
    shutdownGraceMs: 100,
  });
});
afterAll(async () => {
  await worker.close();
  await h.close();
});
// One conversation per test: background tasks are visible only to the conversation that started them.
let chat = '';
let chats = 0;
beforeEach(() => {
  h.server.reset();
  chat = `bg-chat-${++chats}`;
});

const UUID = /task_id: ([0-9a-f-]{36})/;
const tasks = () => createDelegateTasks(h.redis, h.prefix);

/** One main turn making these delegate calls; returns each call's model-visible result. */
async function mainCalls(calls: Array<[string, Record<string, unknown>]>, caller = 'main') {
  h.server.script([{ toolCalls: calls.map(([id, a]) => delegateCall(id, a)) }, { text: 'ok' }], {
    model: 'main-model',
  });
  await h.turn(caller, 'go', { session: chat });
  return calls.map(([id]) => resultOf(h.server, id) ?? '');
}

async function startBackground(agent: string, prompt = 'work'): Promise<string> {
  const [text] = await mainCalls([['bg', { agent, prompt, background: true }]]);
  const id = UUID.exec(text!)?.[1];
  if (!id) throw new Error(`no task id in: ${text}`);
  expect(text).toBe(
    `Background task started for agent '${agent}'.\ntask_id: ${id}\nUse action='check_result' with task_id='${id}' to retrieve the result.`,
  );
  return id;
}

async function waitForStatus(id: string, status: string) {
  await waitFor(async () => (await tasks().get(id))?.status === status, 20_000, `task ${id} to be ${status}`);
}

describe('background delegation', () => {
  it('runs as a job, awaits, and exposes the exact record views', async () => {
    h.server.script([{ text: 'bg answer' }], { model: 'fast-model' });
    const id = await startBackground('writer');
    const [awaited, checked, listed] = await mainCalls([
      ['a1', { action: 'await_sessions', task_ids: [id], timeout_ms: 20_000 }],
      ['c1', { action: 'check_result', task_id: id }],
      ['l1', { action: 'list_results' }],
    ]);
    const view = JSON.parse(checked!);
    expect(checked).toBe(JSON.stringify(view, null, 2));
    expect(Object.keys(view)).toEqual([
      'task_id',
      'agent',
      'status',
      'output',
      'error',
      'started_at',
      'finished_at',
      'progress',
    ]);
    expect(view).toMatchObject({
      task_id: id,
      agent: 'writer',
      status: 'completed',
      output: "[Agent 'writer' (custom/fast-model)]\nbg answer",
      error: null,
    });
    expect(Object.keys(view.progress)).toEqual([
      'last_activity_at',
      'iterations',
      'tools_completed',
      'last_tool',
      'timeout_budget_secs',
      'recent_tools',
      'receipt_tail',
      'elapsed_secs',
    ]);
    expect(view.progress).toMatchObject({
      iterations: 1,
      tools_completed: 0,
      timeout_budget_secs: 1,
      receipt_tail: [],
    });
    expect(JSON.parse(awaited!)).toEqual({
      status: 'complete',
      completed: 1,
      pending: [],
      missing: [],
      failed: [],
      results: [view],
    });
    expect(JSON.parse(listed!)).toEqual([
      {
        task_id: id,
        agent: 'writer',
        status: 'completed',
        started_at: view.started_at,
        finished_at: view.finished_at,
      },
    ]);
    // The worker rewrites the artifact after settling the record (delegate.md §11.5): wait for its final content.
    const artifactFile = join(h.dataDir, 'workspaces', 'main', 'delegate_results', `${id}.json`);
    const finalArtifact = JSON.stringify({ task_id: id, agent: 'writer', output: view.output }, null, 2);
    const readArtifact = () => (existsSync(artifactFile) ? readFileSync(artifactFile, 'utf8') : null);
    await waitFor(() => readArtifact() === finalArtifact, 20_000, 'the artifact with the output').catch(
      () => {
        expect(readArtifact()).toBe(finalArtifact);
      },
    );
    const rec = await tasks().get(id);
    expect(rec).toMatchObject({
      kind: 'delegate',
      chain: ['main'],
      mode: 'bounded',
      depth: 1,
      sender: 'test:user',
    });
    expect(rec?.owner).toBe(h.services.workerId);
    expect(await tasks().inFlight()).not.toContain(id);
  });

  it('validates await_sessions, check_result and cancel_task arguments in order', async () => {
    const good = '6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a6b';
    const many = Array.from({ length: 129 }, () => good);
    const out = await mainCalls(
      [
        ['v1', { action: 'await_sessions' }],
        ['v2', { action: 'await_sessions', task_ids: many }],
        ['v3', { action: 'await_sessions', task_ids: [good, 3] }],
        ['v4', { action: 'await_sessions', task_ids: ['nope'] }],
        ['v5', { action: 'await_sessions', task_ids: [good, good] }],
        ['v6', { action: 'await_sessions', task_ids: [] }],
        ['v7', { action: 'await_sessions', task_ids: [good], timeout_ms: 1.5 }],
        ['v8', { action: 'await_sessions', task_ids: [good], timeout_ms: 120001 }],
        ['v9', { action: 'check_result' }],
        ['v10', { action: 'check_result', task_id: 'xyz' }],
        ['v11', { action: 'check_result', task_id: good }],
        ['v12', { action: 'cancel_task' }],
        ['v13', { action: 'cancel_task', task_id: good }],
        ['v14', { action: 'list_results' }],
      ],
      'broke',
    );
    expect(out).toEqual([
      "Error: Missing 'task_ids' parameter for await_sessions",
      "Error: 'task_ids' must contain no more than 128 task ids",
      "Error: 'task_ids' must contain only strings",
      "Error: Invalid task_id 'nope': must be a valid UUID",
      `Error: Duplicate task_id '${good}' in task_ids`,
      "Error: 'task_ids' must contain at least one task id",
      "Error: 'timeout_ms' must be an integer",
      "Error: 'timeout_ms' must be no more than 120000",
      "Error: Missing 'task_id' parameter for check_result",
      "Error: Invalid task_id 'xyz': must be a valid UUID",
      `Error: No result found for task_id '${good}'`,
      "Error: Missing 'task_id' parameter for cancel_task",
      `Error: No task found for task_id '${good}'`,
      'No background delegate results found.',
    ]);
  });

  it('scopes management to tasks whose chain contains the caller', async () => {
    h.server.script([{ text: 'private' }], { model: 'fast-model' });
    const id = await startBackground('writer');
    await waitForStatus(id, 'completed');
    const [other] = await mainCalls([['s1', { action: 'check_result', task_id: id }]], 'broke');
    expect(other).toBe(`Error: No result found for task_id '${id}'`);
  });

  it('reports pending and missing ids on timeout, then failures', async () => {
    h.server.script([{ delayMs: 3000, status: 401 }], { model: 'primary-model' });
    h.server.script([{ status: 401 }], { model: 'backup-model' });
    const id = await startBackground('flaky');
    const missing = '0b8e8a52-5c1e-4b8a-9f0e-2d7c6a1b3e4f';
    const [early] = await mainCalls([
      ['p1', { action: 'await_sessions', task_ids: [id, missing], timeout_ms: 0 }],
    ]);
    const shape = JSON.parse(early!.slice(0, early!.lastIndexOf('\n\nError: ')));
    expect(shape).toMatchObject({
      status: 'timeout',
      completed: 0,
      pending: [id],
      missing: [missing],
      failed: [],
    });
    expect(early!.endsWith('\n\nError: one or more background tasks are still pending or missing')).toBe(
      true,
    );
    const [late, checked] = await mainCalls([
      ['p2', { action: 'await_sessions', task_ids: [id], timeout_ms: 20_000 }],
      ['p3', { action: 'check_result', task_id: id }],
    ]);
    expect(late!.endsWith('\n\nError: one or more background tasks failed or were cancelled')).toBe(true);
    expect(JSON.parse(late!.split('\n\nError: ')[0]!)).toMatchObject({ status: 'complete', failed: [id] });
    expect(checked).toMatch(
      /\n\nError: Agent 'flaky' failed: All model providers\/models failed after 2 failure event/,
    );
  });

  it('cancels a running task: its model request stops and the record says why', async () => {
    h.server.script([{ delayMs: 20_000, text: 'never' }], { model: 'deep-model' });
    const id = await startBackground('coder');
    await h.server.waitForRequests(2, 20_000); // the main turn's first request, then the child's
    const [cancelled, again] = await mainCalls([
      ['k1', { action: 'cancel_task', task_id: id }],
      ['k2', { action: 'cancel_task', task_id: id }],
    ]);
    expect(cancelled).toBe(`Task '${id}' cancelled: the running task was aborted.`);
    expect(again).toBe(`Error: Task '${id}' is not running (status: Cancelled)`);
    const rec = await tasks().get(id);
    expect(rec).toMatchObject({ status: 'cancelled', error: 'Cancelled by user request' });
    // The job ends long before the model's 20 s reply: the child request was aborted.
    await waitFor(async () => (await worker.delegation.jobState(id)) !== 'active', 15_000, 'the job to end');
    expect((await tasks().get(id))?.status).toBe('cancelled');
  });

  it('refuses at the in-flight cap before any task id exists', async () => {
    const key = taskKeys(h.prefix).inflight;
    await h.redis.sadd(key, ...Array.from({ length: 128 }, (_, i) => `fake-${i}`));
    try {
      const [text] = await mainCalls([['cap', { agent: 'writer', prompt: 'x', background: true }]]);
      expect(text).toBe(
        'Error: Too many background delegations in flight (limit 128). Wait for some to finish (check_result) or cancel one (cancel_task) before starting more.',
      );
    } finally {
      await h.redis.del(key);
    }
  });

  it('lets the reaper mark a silent task lost, and check_result explains it', async () => {
    const id = '9d3f1c2b-4a5e-4f60-8b7c-0a1b2c3d4e5f';
    await tasks().admit(silentRunningTask(id, { timeout_budget_secs: 120, scope: chat }));
    const reaper = startDelegateReaper({
      redis: h.redis,
      prefix: h.prefix,
      delegation: worker.delegation,
      logger: h.services.logger,
    });
    try {
      expect(await reaper.runOnce()).toBe(1);
    } finally {
      reaper.close();
    }
    const [checked, cancel] = await mainCalls([
      ['r1', { action: 'check_result', task_id: id }],
      ['r2', { action: 'cancel_task', task_id: id }],
    ]);
    const view = JSON.parse(checked!.split('\n\nError: ')[0]!);
    expect(view.status).toBe('lost');
    expect(Object.keys(view).at(-1)).toBe('note');
    expect(view.note).toBe(
      'the owning daemon exited or the task exceeded its max runtime; reconciled by the supervision reaper',
    );
    expect(checked!.endsWith('\n\nError: background task is lost and will not complete')).toBe(true);
    expect(cancel).toBe(`Error: Task '${id}' is not running (status: Lost)`);
  });
});
