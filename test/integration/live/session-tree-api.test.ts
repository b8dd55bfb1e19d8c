// live.md §6 over the operations API: GET /api/sessions/:id/tree serves the session's running turn and its recent
// turns, each as a tree with kinds, states, tool calls, cost per hop, pending approvals from their records and a
// transcript link per node. The running turn is the one the session's running mark names until its settle.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApprovalStore } from '../../../src/approval/approval-store.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createRunningTurns, runningTurnsKey } from '../../../src/fleet/running-turns.ts';
import { createRunEventLog, type RunEventLog } from '../../../src/live/run-event-log.ts';
import type { SessionTreeView } from '../../../src/live/session-tree.ts';
import { transcriptUrl } from '../../../src/live/transcript-link.ts';
import type { RunLineage } from '../../../src/run-contract/run-events.ts';
import { type AgentHarness, createAgentHarness } from '../../helpers/agent-harness.ts';
import { spaceOf } from '../../helpers/key-space.ts';
import { newApproval } from '../approval/helpers.ts';
import { type OpsHarness, startOpsHarness } from '../gateway/ops-harness.ts';
import { TREE_TOML } from './tree-config.ts';

let h: AgentHarness;
let ops: OpsHarness;
beforeAll(async () => {
  h = await createAgentHarness('live-session-tree', TREE_TOML);
  ops = await startOpsHarness({ prefix: h.prefix });
});
afterAll(async () => {
  await ops.close();
  await h.close();
});

const events = () => h.services.events as RunEventLog;
const treeOf = async (session: string) =>
  (await (await ops.get(`/api/sessions/${encodeURIComponent(session)}/tree`)).json()) as SessionTreeView;
const rootRun = (root: string) => ({
  runId: root,
  lineage: { kind: 'root', treeRootId: root, parentRunId: null, parentToolCallId: null } as RunLineage,
});

describe('GET /api/sessions/:id/tree', () => {
  it('serves the running turn and the recent turns, newest first, each a tree with the §6 fields', async () => {
    const session = 'web.main:chat-7:';
    // Two finished turns; each of the model's replies costs 11 input and 7 output tokens: 25 micro-dollars.
    h.server.script([
      { toolCalls: [{ id: 'call_sub', name: 'spawn_subagent', arguments: { prompt: 'count files' } }] },
      { text: 'SUB-ANSWER' },
      { text: 'done' },
      { text: 'second answer' },
    ]);
    const first = await h.turn('main', 'go', { session });
    const second = await h.turn('main', 'again', { session });
    await events().flush();

    // A third turn runs now, its shell call waiting for an operator in the ops room.
    const third = randomUUID();
    events().emit(rootRun(third), { type: 'run_started', kind: 'root', agent: 'main', session_key: session });
    events().emit(rootRun(third), {
      type: 'tool_started',
      tool_call_id: 'call_sh',
      tool: 'shell',
      args_summary: 'command: ls',
    });
    await events().flush();
    const approvals = createApprovalStore({ redis: h.redis, prefix: h.prefix, logger: createSilentLogger() });
    const pending = await approvals.createPendingApproval(
      newApproval({
        runId: third,
        rootRunId: third,
        channel: 'local.test',
        destination: { chat: 'ops-room' },
      }),
    );
    const marks = createRunningTurns(h.redis, spaceOf(h.prefix));
    await marks.markRunning(session, 'web.main:e3', 'worker-1', third);

    let tree = await treeOf(session);
    expect(tree.session).toBe(session);
    expect(tree.running?.root_run_id).toBe(third);
    expect(tree.running?.runs).toMatchObject([
      {
        run_id: third,
        kind: 'root',
        state: 'running',
        transcript_url: transcriptUrl('main', session),
        tools: [{ tool_call_id: 'call_sh', tool: 'shell', state: 'running', duration_ms: null }],
        pending_approvals: [
          {
            approval_id: pending.approval_id,
            tool: 'shell',
            channel: 'local.test',
            chat: 'ops-room',
            thread: null,
          },
        ],
      },
    ]);
    expect(tree.recent.map((t) => t.root_run_id)).toEqual([second.runId, first.runId]);
    const [root] = tree.recent[1]!.runs;
    expect(root).toMatchObject({
      run_id: first.runId,
      kind: 'root',
      agent: 'main',
      state: 'completed',
      iterations: 2,
      cost_usd: 0.00005,
      parent_tool_call_id: null,
      transcript_url: transcriptUrl('main', session),
      pending_approvals: [],
    });
    expect(Number.isNaN(Date.parse(tree.recent[1]!.started_at ?? ''))).toBe(false);
    const sub = root!.children[0]!;
    expect(sub).toMatchObject({
      kind: 'subagent',
      parent_tool_call_id: 'call_sub',
      state: 'completed',
      cost_usd: 0.000025,
      transcript_url: transcriptUrl('main', `subagent-${sub.run_id}`),
    });
    expect(JSON.stringify(tree)).not.toContain('SUB-ANSWER');

    // Its events say it finished; the mark still stands (no settle yet): the turn is still running.
    events().emit(rootRun(third), { type: 'run_finished', state: 'completed' });
    await events().flush();
    tree = await treeOf(session);
    expect(tree.running?.runs[0]).toMatchObject({ state: 'running', finished_at: null });

    // Settled: the turn joins the recent ones, completed.
    await marks.markDone(session, 'web.main:e3');
    tree = await treeOf(session);
    expect(tree.running).toBeNull();
    expect(tree.recent.map((t) => t.root_run_id)).toEqual([third, second.runId, first.runId]);
    expect(tree.recent[0]!.runs[0]!.state).toBe('completed');
  });

  it("links a delegated child to its caller's transcript (it keeps none of its own)", async () => {
    const session = 'web.main:deleg:';
    const root = randomUUID();
    const child = {
      runId: randomUUID(),
      lineage: {
        kind: 'delegate',
        treeRootId: root,
        parentRunId: root,
        parentToolCallId: 'call_d',
        mode: 'bounded',
      } as RunLineage,
    };
    const log = createRunEventLog(h.redis, spaceOf(h.prefix), createSilentLogger());
    log.emit(rootRun(root), { type: 'run_started', kind: 'root', agent: 'main', session_key: session });
    log.emit(child, {
      type: 'run_started',
      kind: 'delegate',
      agent: 'helper',
      session_key: session,
      mode: 'bounded',
    });
    await log.flush();
    const [node] = (await treeOf(session)).recent[0]!.runs;
    expect(node!.children).toMatchObject([
      {
        kind: 'delegate',
        agent: 'helper',
        mode: 'bounded',
        parent_tool_call_id: 'call_d',
        state: 'running',
        cost_usd: null,
        transcript_url: transcriptUrl('main', session),
      },
    ]);
  });

  it('an unknown session has no turns; a damaged running mark names no running turn', async () => {
    expect(await treeOf('web.main:nobody:')).toEqual({
      session: 'web.main:nobody:',
      running: null,
      recent: [],
    });
    await h.redis.hset(runningTurnsKey(spaceOf(h.prefix), 'web.main:odd:'), 'web.main:odd:', '{not json');
    expect(await treeOf('web.main:odd:')).toEqual({ session: 'web.main:odd:', running: null, recent: [] });
  });
});
