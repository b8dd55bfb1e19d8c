// live.md §6 over the operations API: GET /api/runs/:id/tree serves a turn's execution tree, rebuilt from its
// run events, with a background task's state taken from its task record (the authority), never from its launch.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createDelegateTasks } from '../../../src/delegation/delegate-tasks.ts';
import { createRunEventLog } from '../../../src/live/run-event-log.ts';
import { noRunTree } from '../../../src/ops-api/ops-api-messages.ts';
import type { RunLineage } from '../../../src/run-contract/run-events.ts';
import { type AgentHarness, createAgentHarness } from '../../helpers/agent-harness.ts';
import { spaceOf } from '../../helpers/key-space.ts';
import { silentRunningTask } from '../../helpers/task-fixtures.ts';
import { type OpsHarness, startOpsHarness } from '../gateway/ops-harness.ts';
import { TREE_TOML } from './tree-config.ts';

let h: AgentHarness;
let ops: OpsHarness;
beforeAll(async () => {
  h = await createAgentHarness('live-tree-api', TREE_TOML);
  ops = await startOpsHarness({ prefix: h.prefix });
});
afterAll(async () => {
  await ops.close();
  await h.close();
});

describe('GET /api/runs/:id/tree', () => {
  it("serves a turn's tree: the root, its subagent under the spawning call, their tool calls", async () => {
    h.server.script([
      { toolCalls: [{ id: 'call_sub', name: 'spawn_subagent', arguments: { prompt: 'count files' } }] },
      { text: 'SUB-ANSWER' },
      { text: 'done' },
    ]);
    const turn = await h.turn('main', 'go');
    await (h.services.events as ReturnType<typeof createRunEventLog>).flush();

    const res = await ops.get(`/api/runs/${turn.runId}/tree`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { root_run_id: string; runs: Record<string, unknown>[] };
    expect(body.root_run_id).toBe(turn.runId);
    expect(body.runs).toHaveLength(1);
    const [root] = body.runs as {
      run_id: string;
      kind: string;
      state: string;
      iterations: number;
      tools: { tool_call_id: string; tool: string; args_summary: string; state: string }[];
      children: { kind: string; parent_tool_call_id: string; state: string; started_at: string }[];
    }[];
    expect(root).toMatchObject({
      run_id: turn.runId,
      kind: 'root',
      state: 'completed',
      iterations: 2,
      cost_usd: 0.00005,
    });
    expect(root!.tools).toMatchObject([
      {
        tool_call_id: 'call_sub',
        tool: 'spawn_subagent',
        args_summary: 'prompt: count files',
        state: 'succeeded',
      },
    ]);
    expect(root!.children).toMatchObject([
      { kind: 'subagent', parent_tool_call_id: 'call_sub', state: 'completed' },
    ]);
    expect(Number.isNaN(Date.parse(root!.children[0]!.started_at))).toBe(false);
    expect(JSON.stringify(body)).not.toContain('SUB-ANSWER');
  });

  it("shows a background task in the state its record holds, not its launch's", async () => {
    const root = randomUUID();
    const child = randomUUID();
    const taskId = randomUUID();
    const events = createRunEventLog(h.redis, spaceOf(h.prefix), createSilentLogger());
    const rootRun = {
      runId: root,
      lineage: { kind: 'root', treeRootId: root, parentRunId: null, parentToolCallId: null } as RunLineage,
    };
    events.emit(rootRun, { type: 'run_started', kind: 'root', agent: 'main', session_key: 'web.main:c:' });
    events.emit(rootRun, { type: 'background_started', task_id: taskId, target: 'writer' });
    events.emit(rootRun, { type: 'run_finished', state: 'completed' });
    const childRun = {
      runId: child,
      lineage: {
        kind: 'background',
        treeRootId: root,
        parentRunId: root,
        parentToolCallId: 'call_bg',
        taskId,
      } as RunLineage,
    };
    events.emit(childRun, {
      type: 'run_started',
      kind: 'background',
      agent: 'writer',
      session_key: 's',
      task_id: taskId,
    });
    await events.flush();
    const tasks = createDelegateTasks(h.redis, h.prefix);
    await tasks.admit(silentRunningTask(taskId));

    const get = async () =>
      (await (await ops.get(`/api/runs/${root}/tree`)).json()) as {
        runs: { background_tasks: { state: string }[]; children: { state: string; task_id: string }[] }[];
      };
    // Its record still says running: so does the tree, whatever the launch reported.
    let tree = await get();
    expect(tree.runs[0]!.background_tasks).toEqual([{ task_id: taskId, target: 'writer', state: 'running' }]);
    expect(tree.runs[0]!.children).toMatchObject([{ task_id: taskId, state: 'running' }]);
    // The record settles: the node follows it, though no run_finished event was written.
    await tasks.settle(taskId, 'completed', { output: 'x' });
    tree = await get();
    expect(tree.runs[0]!.background_tasks[0]!.state).toBe('completed');
    expect(tree.runs[0]!.children[0]!.state).toBe('completed');
  });

  it('answers 404 with a clear error for a run it has no events of, 400 for what is not a run id', async () => {
    const unknown = randomUUID();
    const res = await ops.get(`/api/runs/${unknown}/tree`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: noRunTree(unknown) });
    expect((await ops.get('/api/runs/..%2Fetc/tree')).status).toBe(400);
    expect((await ops.get('/api/runs/not-a-run/tree')).status).toBe(400);
  });
});
