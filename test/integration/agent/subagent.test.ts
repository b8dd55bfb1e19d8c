// spawn_subagent through the whole path: the model calls it, a child run talks to the model, the result returns.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runtimeDenialText } from '../../../src/approval/approval-messages.ts';
import {
  SPAWN_SUBAGENT_DESCRIPTION,
  SPAWN_SUBAGENT_PARAMETERS,
} from '../../../src/tools/subagent/subagent-messages.ts';
import { toolNamesOf, toolResultsOf } from '../../fakes/model-requests.ts';
import { type AgentHarness, createAgentHarness, toolResultIn } from '../../helpers/agent-harness.ts';

const TOML = `
[providers.models.custom.fake]
uri = "\${MODEL_URI}"
model = "fake-model"
temperature = 0.3

[reliability]
provider_retries = 0
provider_backoff_ms = 1

[risk_profiles.default]
auto_approve = ["spawn_subagent", "memory_store"]

[risk_profiles.asking]

[risk_profiles.reader]
level = "readonly"

[runtime_profiles.default]
max_tool_iterations = 3
parallel_tools = true

[runtime_profiles.budget2]
max_execution_tree_iterations = 2

[runtime_profiles.no-actions]
max_actions_per_hour = 0

[agents.main]
model_provider = "custom.fake"
risk_profile = "default"
runtime_profile = "default"

[agents.asker]
model_provider = "custom.fake"
risk_profile = "asking"

[agents.reader]
model_provider = "custom.fake"
risk_profile = "reader"

[agents.budget]
model_provider = "custom.fake"
risk_profile = "default"
runtime_profile = "budget2"

[agents.broke]
model_provider = "custom.fake"
risk_profile = "default"
runtime_profile = "no-actions"
`;

let h: AgentHarness;
beforeAll(async () => {
  h = await createAgentHarness('subagent', TOML);
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

const spawn = (id: string, prompt: unknown) => ({ id, name: 'spawn_subagent', arguments: { prompt } });
const userText = (i: number) =>
  (h.server.requests[i]!.body.messages ?? []).filter((m) => m.role === 'user').map((m) => m.content);

describe('spawn_subagent', () => {
  it('is offered with the exact description and schema', async () => {
    h.server.script([{ text: 'ok' }]);
    await h.turn('main', 'hi');
    const tool = (h.server.requests[0]!.body.tools ?? []).find(
      (t) => (t.function as { name: string }).name === 'spawn_subagent',
    );
    expect(tool?.function).toEqual({
      name: 'spawn_subagent',
      description: SPAWN_SUBAGENT_DESCRIPTION,
      parameters: SPAWN_SUBAGENT_PARAMETERS,
    });
  });

  it('runs an isolated child of the same agent and returns only its final text', async () => {
    h.server.script([
      { toolCalls: [spawn('s1', '  research the thing  ')] },
      { toolCalls: [{ id: 'c1', name: 'memory_store', arguments: { key: 'found', content: 'child fact' } }] },
      { text: 'child answer' },
      { text: 'parent done' },
    ]);
    const res = await h.turn('main', 'delegate internally');
    expect(res.text).toBe('parent done');
    // the child saw the system prompt and only the trimmed prompt, never the parent's conversation
    expect(userText(1)).toEqual(['research the thing']);
    const childTools = toolNamesOf(h.server.requests[1]!);
    expect(childTools).toContain('spawn_subagent');
    expect(childTools).not.toContain('model_switch');
    expect(h.server.requests[1]!.body.temperature).toBe(0.3);
    // the parent gets exactly the child's final text; the child's tool calls never enter its history
    const parentNext = h.server.requests[3]!;
    expect(toolResultIn(parentNext, 's1')).toBe('child answer');
    expect(JSON.stringify(parentNext.body.messages)).not.toContain('child fact');
  });

  it('says so when the child answers with nothing', async () => {
    h.server.script([{ toolCalls: [spawn('s2', 'x')] }, { text: '   ' }, { text: 'ok' }]);
    await h.turn('main', 'go');
    expect(toolResultIn(h.server.requests[2]!, 's2')).toBe('subagent completed without output');
  });

  it('refuses a missing or blank prompt before anything else', async () => {
    h.server.script([
      {
        toolCalls: [spawn('p1', '   '), { id: 'p2', name: 'spawn_subagent', arguments: {} }, spawn('p3', 42)],
      },
      { text: 'ok' },
    ]);
    await h.turn('main', 'go');
    for (const id of ['p1', 'p2', 'p3']) {
      expect(toolResultIn(h.server.requests[1]!, id)).toBe("Error: Missing or empty 'prompt' parameter");
    }
  });

  it('a subagent may not spawn its own subagents', async () => {
    h.server.script([
      { toolCalls: [spawn('s3', 'outer')] },
      { toolCalls: [spawn('inner', 'deeper')] },
      { text: 'child gave up' },
      { text: 'ok' },
    ]);
    await h.turn('main', 'go');
    expect(toolResultIn(h.server.requests[2]!, 'inner')).toBe(
      'Error: spawn_subagent: a subagent may not spawn its own subagents (depth-1 cap)',
    );
  });

  it('reports a failed child as "subagent run failed: <message>"', async () => {
    h.server.script([{ toolCalls: [spawn('s4', 'loop')] }, { text: 'parent ok' }]);
    h.server.respond((req) =>
      req.body.messages?.some((m) => m.content === 'loop')
        ? { toolCalls: [{ name: 'memory_recall', arguments: { query: String(Math.random()) } }] }
        : undefined,
    );
    await h.turn('main', 'go');
    const last = h.server.requests.at(-1)!;
    expect(toolResultIn(last, 's4')).toBe(
      'Error: subagent run failed: Agent exceeded maximum tool iterations (3)',
    );
  });

  it('shares the tree budget: a child cannot take the root’s last slot', async () => {
    h.server.script([{ toolCalls: [spawn('b1', 'child')] }, { text: 'root final without tools' }]);
    const res = await h.turn('budget', 'go');
    expect(res.text).toBe('root final without tools');
    expect(h.server.requests).toHaveLength(2); // the child never reached the model
    expect(toolResultIn(h.server.requests[1]!, 'b1')).toBe(
      'Error: subagent run failed: execution-tree iteration budget exhausted',
    );
    expect(h.server.requests[1]!.body.tools ?? []).toEqual([]);
    expect(h.logs.some((l) => l.msg === 'Shared iteration budget exhausted at iteration 1')).toBe(true);
  });

  it('passes the approval gate first: a supervised profile without auto_approve is denied by runtime', async () => {
    h.server.script([{ toolCalls: [spawn('a1', 'x')] }, { text: 'ok' }]);
    await h.turn('asker', 'go');
    expect(toolResultIn(h.server.requests[1]!, 'a1')).toBe(`Error: ${runtimeDenialText('spawn_subagent')}`);
  });

  it('refuses in read-only mode and when the action budget is exhausted', async () => {
    h.server.script([{ toolCalls: [spawn('r1', 'x')] }, { text: 'ok' }]);
    await h.turn('reader', 'go');
    expect(toolResultIn(h.server.requests[1]!, 'r1')).toBe(
      "Error: Security policy: read-only mode, cannot perform 'spawn_subagent'",
    );
    h.server.reset();
    h.server.script([{ toolCalls: [spawn('r2', 'x')] }, { text: 'ok' }]);
    await h.turn('broke', 'go');
    expect(toolResultIn(h.server.requests[1]!, 'r2')).toBe(
      'Error: Rate limit exceeded: action budget exhausted',
    );
  });

  it('runs parallel children concurrently and returns each result on its own call id, in order', async () => {
    h.server.script([{ toolCalls: [spawn('x1', 'same'), spawn('x2', 'same')] }]);
    let children = 0;
    h.server.respond((req) => {
      const isChild = req.body.messages?.some((m) => m.role === 'user' && m.content === 'same');
      if (!isChild) return undefined;
      children++;
      return { text: `child ${children}`, delayMs: 3000 };
    });
    h.server.script([{ text: 'parent ok' }]);
    const turn = h.turn('main', 'fan out');
    // Both children are at the model before either answers: they run concurrently.
    await h.server.waitForRequests(3, 2500);
    await turn;
    const last = h.server.requests.at(-1)!;
    expect([toolResultIn(last, 'x1'), toolResultIn(last, 'x2')].sort()).toEqual(['child 1', 'child 2']);
    const order = toolResultsOf(last).map((r) => r.toolCallId);
    expect(order).toEqual(['x1', 'x2']);
  });

  it('logs the child run with its own scope and records its task', async () => {
    h.server.script([{ toolCalls: [spawn('l1', 'log me')] }, { text: 'child text' }, { text: 'ok' }]);
    const before = h.logs.length;
    await h.turn('main', 'go', { session: 'log-session' });
    const childLines = h.logs.slice(before).filter((l) => l.spawn_site === 'tool');
    expect(childLines.length).toBeGreaterThan(0);
    const runId = String(childLines[0]!.run_id);
    for (const l of childLines) {
      expect(l).toMatchObject({
        agent_alias: 'main',
        session_key: runId,
        span: `agent.main.subagent.${runId}`,
        parent_tool_call_id: 'l1',
      });
    }
    const record = await h.services.tasks.get(runId);
    expect(record).toMatchObject({
      kind: 'subagent',
      agent: 'main',
      chain: ['main'],
      status: 'completed',
      depth: 1,
    });
    expect(record?.output).toBe('child text');
    expect(await h.services.history.load('main', `subagent-${runId}`)).toHaveLength(2);
  });

  it('is aborted with its parent turn', async () => {
    h.server.script([{ toolCalls: [spawn('c1', 'slow')] }, { text: 'never', delayMs: 10_000 }]);
    const abort = new AbortController();
    const turn = h.turn('main', 'go', { signal: abort.signal });
    await h.server.waitForRequests(2, 5000);
    abort.abort();
    await expect(turn).rejects.toThrow();
  });
});
