// Run events (live.md §1) through a real turn: the model spawns a subagent and delegates to an agentic coder
// that writes a file; every run of the tree reports itself with its parent and the parent's tool call id, in one
// order shared by all of them, with argument summaries and never a result, answer or prompt text.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { scanKeys } from '../../../src/core/redis-scan.ts';
import { createRunEventLog, type RunEventLog, runEventKeys } from '../../../src/live/run-event-log.ts';
import { readRecentTurns } from '../../../src/live/session-turns.ts';
import {
  type NewRunEvent,
  newRunEvent,
  type RunEvent,
  type RunEventSink,
  type RunLineage,
} from '../../../src/run-contract/run-events.ts';
import { buildRunTree } from '../../../src/run-contract/run-tree.ts';
import { type AgentHarness, createAgentHarness } from '../../helpers/agent-harness.ts';
import { spaceOf } from '../../helpers/key-space.ts';
import { deletePrefix, uniquePrefix } from '../../helpers/redis.ts';
import { monitorRedis } from '../../helpers/redis-monitor.ts';
import { waitFor } from '../../helpers/wait.ts';

const TOML = `
[providers.models.custom.main]
uri = "\${MODEL_URI}"
model = "main-model"

[providers.models.custom.deep]
uri = "\${MODEL_URI}"
model = "deep-model"

[reliability]
provider_retries = 0

[risk_profiles.ops]
delegation_policy = { mode = "allow" }
auto_approve = ["delegate", "spawn_subagent", "file_write"]

[runtime_profiles.agentic]
agentic = true
max_tool_iterations = 3

[agents.main]
model_provider = "custom.main"
risk_profile = "ops"
delegates = ["coder"]

[agents.coder]
model_provider = "custom.deep"
risk_profile = "ops"
runtime_profile = "agentic"
`;

let h: AgentHarness;
beforeAll(async () => {
  h = await createAgentHarness('live-events', TOML);
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

const log = () => h.services.events as RunEventLog;

function scriptTree(): void {
  h.server.script(
    [
      { toolCalls: [{ id: 'call_spawn', name: 'spawn_subagent', arguments: { prompt: 'look around' } }] },
      { text: 'SUBAGENT-ANSWER' },
      {
        toolCalls: [
          { id: 'call_delegate', name: 'delegate', arguments: { agent: 'coder', prompt: 'write the notes' } },
        ],
      },
      { text: 'FINAL-ANSWER' },
    ],
    { model: 'main-model' },
  );
  h.server.script(
    [
      {
        toolCalls: [
          { id: 'call_write', name: 'file_write', arguments: { path: 'notes.txt', content: 'hello' } },
        ],
      },
      { text: 'CODER-ANSWER' },
    ],
    { model: 'deep-model' },
  );
}

describe('run events', () => {
  it('rebuild the execution tree of a turn: root, subagent and delegate with their tool calls', async () => {
    scriptTree();
    const turn = await h.turn('main', 'PROMPT-TEXT please');
    expect(turn.text).toBe('FINAL-ANSWER');
    await log().flush();
    const events = await log().read(turn.runId);

    // One order for the whole tree, numbered by Redis from 1 without gaps.
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.every((e) => e.root_run_id === turn.runId)).toBe(true);

    const [root, ...others] = buildRunTree(events);
    expect(others).toEqual([]);
    expect(root).toMatchObject({
      runId: turn.runId,
      kind: 'root',
      agent: 'main',
      parentRunId: null,
      state: 'completed',
      iterations: 3,
    });
    expect(root!.tools.map((t) => [t.toolCallId, t.tool, t.state])).toEqual([
      ['call_spawn', 'spawn_subagent', 'succeeded'],
      ['call_delegate', 'delegate', 'succeeded'],
    ]);
    expect(root!.tools[1]!.argsSummary).toBe('agent: coder, prompt: write the notes');

    const [sub, coder] = root!.children;
    expect(sub).toMatchObject({
      kind: 'subagent',
      agent: 'main',
      parentRunId: turn.runId,
      parentToolCallId: 'call_spawn',
      state: 'completed',
      iterations: 1,
    });
    expect(sub!.sessionKey).toBe(`subagent-${sub!.runId}`);
    expect(coder).toMatchObject({
      kind: 'delegate',
      agent: 'coder',
      mode: 'bounded',
      parentRunId: turn.runId,
      parentToolCallId: 'call_delegate',
      state: 'completed',
      iterations: 2,
    });
    expect(coder!.tools).toEqual([
      expect.objectContaining({
        toolCallId: 'call_write',
        tool: 'file_write',
        argsSummary: 'path: notes.txt, content: hello',
        state: 'succeeded',
      }),
    ]);

    // A child's events sit between its parent's tool call start and finish.
    const at = (pred: (e: RunEvent) => boolean) => events.findIndex(pred);
    const delegateStart = at((e) => e.type === 'tool_started' && e.tool_call_id === 'call_delegate');
    const coderStart = at((e) => e.type === 'run_started' && e.agent === 'coder');
    const coderEnd = at((e) => e.type === 'run_finished' && e.run_id === coder!.runId);
    const delegateEnd = at((e) => e.type === 'tool_finished' && e.tool_call_id === 'call_delegate');
    expect(delegateStart < coderStart && coderStart < coderEnd && coderEnd < delegateEnd).toBe(true);

    // Summaries only: no prompt text, no tool results (a child's answer is its parent's tool result). The one
    // text that streams is the root's answer, the one that goes to the chat (live.md §1, §2).
    const stored = JSON.stringify(events);
    for (const secret of ['SUBAGENT-ANSWER', 'CODER-ANSWER', 'PROMPT-TEXT', 'Wrote']) {
      expect(stored).not.toContain(secret);
    }
    const deltas = events.filter((e) => e.type === 'answer_delta');
    expect(deltas.map((e) => [e.run_id, e.type === 'answer_delta' && e.delta])).toEqual([
      [turn.runId, 'FINAL-ANSWER'],
    ]);
  });

  it('a failed run ends failed, and its tree still closes', async () => {
    h.server.script([{ status: 500 }], { model: 'main-model' });
    await expect(h.turn('main', 'hi')).rejects.toThrow();
    await log().flush();
    const keys = runEventKeys(spaceOf(h.prefix));
    const ids = await scanKeys(h.redis, keys.streamPattern);
    const trees = await Promise.all(ids.map((k) => log().read(keys.rootOf(k))));
    const failed = trees.flatMap(buildRunTree).filter((n) => n.state === 'failed');
    expect(failed).toEqual([expect.objectContaining({ kind: 'root', agent: 'main', iterations: 1 })]);
  });

  it('a Redis that cannot take events loses the live view, never the turn', async () => {
    const broken = new Redis({
      port: 1,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    broken.on('error', () => {});
    const events = createRunEventLog(broken, spaceOf(h.prefix), createSilentLogger());
    const healthy = h.services.events;
    h.extend({ events });
    try {
      scriptTree();
      const turn = await h.turn('main', 'go');
      expect(turn.text).toBe('FINAL-ANSWER');
      await events.flush();
    } finally {
      h.extend({ events: healthy });
      broken.disconnect();
    }
  });
});

describe('run events in Redis', () => {
  const prefix = uniquePrefix('live-flush');
  const space = spaceOf(prefix);
  afterAll(() => deletePrefix(h.redis, prefix));

  /** A turn of `session`: the root starts, runs a subagent, streams its answer and finishes; its events as emitted. */
  function turn(log: RunEventSink, session: string): NewRunEvent[] {
    const root = randomUUID();
    const child = randomUUID();
    const emitted: NewRunEvent[] = [];
    const stop = log.watch(root, (e) => emitted.push(e));
    const lineage = (kind: RunLineage['kind'], parent: string | null): RunLineage => ({
      kind,
      treeRootId: root,
      parentRunId: parent,
      parentToolCallId: parent && 'call_spawn',
    });
    const rootRun = { runId: root, lineage: lineage('root', null) };
    const childRun = { runId: child, lineage: lineage('subagent', root) };
    log.emit(rootRun, { type: 'run_started', kind: 'root', agent: 'main', session_key: session });
    log.emit(rootRun, { type: 'model_request', iteration: 1 });
    log.emit(rootRun, {
      type: 'tool_started',
      tool_call_id: 'call_spawn',
      tool: 'spawn_subagent',
      args_summary: 'p',
    });
    log.emit(childRun, {
      type: 'run_started',
      kind: 'subagent',
      agent: 'main',
      session_key: `subagent-${child}`,
    });
    log.emit(childRun, { type: 'run_finished', state: 'completed' });
    log.emit(rootRun, {
      type: 'tool_finished',
      tool_call_id: 'call_spawn',
      tool: 'spawn_subagent',
      success: true,
      duration_ms: 12,
    });
    log.emit(rootRun, { type: 'answer_delta', iteration: 2, delta: 'DONE', restart: false });
    log.emit(rootRun, { type: 'run_finished', state: 'completed' });
    stop();
    return emitted;
  }

  it('one flush of several turns (their trees and session indexes) is one script call, read back whole', async () => {
    const log = createRunEventLog(h.redis, space, createSilentLogger());
    turn(log, 'local.test:warm:'); // loads the script, so no EVALSHA below is refused with NOSCRIPT
    await log.flush();

    const calls: string[][] = [];
    const marker = `${prefix}:marker`;
    let seenMarker = false;
    const mon = await monitorRedis(h.redis, ({ args }) => {
      if (args[1] === marker) seenMarker = true;
      else if (/^eval/i.test(args[0] ?? '') && args.some((a) => a.startsWith(`{${prefix}:`)))
        calls.push(args);
    });
    const sessions = [
      'telegram.main:1:',
      'slack.work:C01:1700.1',
      'web.main:alice:sess:with:colons',
      'local.test:chat {braces}:',
    ];
    const turns = sessions.map((session) => turn(log, session));
    await log.flush();
    await h.redis.get(marker); // the monitor sees every command before this one first
    await waitFor(() => seenMarker, 5000, 'the monitor to see the marker');
    mon.stop();

    expect(calls).toHaveLength(1);
    // Its keys: each tree's stream and counter, then each session's recent-turns index.
    expect(Number(calls[0]?.[2])).toBe(turns.length * 2 + sessions.length);

    for (const [i, emitted] of turns.entries()) {
      const root = emitted[0]!.root_run_id;
      const read = await log.read(root);
      expect(read).toEqual(emitted.map((e, n) => ({ ...e, seq: n + 1 })));
      expect(JSON.stringify(read)).toBe(JSON.stringify(emitted.map((e, n) => ({ ...e, seq: n + 1 }))));
      expect(
        (await readRecentTurns(h.redis, space, sessions[i]!, createSilentLogger())).map((t) => t.rootRunId),
      ).toEqual([root]);
      // Stored without what the tree implies: no root run id, and the root's own events no run id or parents.
      const entries = await h.redis.xrange(runEventKeys(space).stream(root), '-', '+');
      expect(entries).toHaveLength(1);
      const fields = entries[0]?.[1] ?? [];
      const stored = JSON.parse(fields[fields.indexOf('events') + 1] ?? '') as Record<string, unknown>[];
      expect(stored.some((e) => 'root_run_id' in e)).toBe(false);
      expect(stored[0]).toEqual({
        at: emitted[0]!.at,
        type: 'run_started',
        kind: 'root',
        agent: 'main',
        session_key: sessions[i],
      });
    }
  });

  it('an entry stored whole (the previous release) reads the same', async () => {
    // The events of a turn as they were stored then: whole (emitted to a sink that only hands them on).
    let listener: ((e: NewRunEvent) => void) | undefined;
    const emitted = turn(
      {
        emit: (run, body) => listener?.(newRunEvent(run, body)),
        watch: (_root, l) => {
          listener = l;
          return () => {};
        },
      },
      'local.test:old:',
    );
    const root = emitted[0]!.root_run_id;
    const log = createRunEventLog(h.redis, space, createSilentLogger());
    await h.redis.xadd(runEventKeys(space).stream(root), '*', 'seq', 1, 'events', JSON.stringify(emitted));
    const read = await log.read(root);
    expect(JSON.stringify(read)).toBe(JSON.stringify(emitted.map((e, n) => ({ ...e, seq: n + 1 }))));
  });
});
