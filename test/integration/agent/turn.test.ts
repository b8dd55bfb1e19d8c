// A whole top-level turn: fake model chooses tools, the real registry, gate, policy and tools run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runtimeDenialText } from '../../../src/approval/approval-messages.ts';
import { systemPromptOf, toolNamesOf, transcriptOf } from '../../fakes/model-requests.ts';
import { type AgentHarness, createAgentHarness, toolResultIn } from '../../helpers/agent-harness.ts';

const TOML = `
[providers.models.custom.fake]
uri = "\${MODEL_URI}"
model = "fake-model"

[providers.models.custom.other]
uri = "\${MODEL_URI}"
model = "other-model"

[reliability]
provider_retries = 0
provider_backoff_ms = 1

[risk_profiles.default]
auto_approve = ["file_write", "spawn_subagent", "memory_store", "model_switch"]

[risk_profiles.limited]
allowed_tools = ["file_read", "file_write"]

[runtime_profiles.default]
max_tool_iterations = 3
parallel_tools = false

[runtime_profiles.short-results]
max_tool_result_chars = 40

[runtime_profiles.tiny-tree]
max_execution_tree_iterations = 1

[agents.main]
model_provider = "custom.fake"
risk_profile = "default"
runtime_profile = "default"

[agents.short]
model_provider = "custom.fake"
risk_profile = "default"
runtime_profile = "short-results"

[agents.limited]
model_provider = "custom.fake"
risk_profile = "limited"

[agents.tree]
model_provider = "custom.fake"
risk_profile = "default"
runtime_profile = "tiny-tree"
`;

let h: AgentHarness;
beforeAll(async () => {
  h = await createAgentHarness('turn', TOML);
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

describe('a top-level turn', () => {
  it('answers with the final text and shows the model the system prompt sections and tool list', async () => {
    h.server.script([{ text: 'hello there' }]);
    const res = await h.turn('main', 'hi');
    expect(res.text).toBe('hello there');
    const first = h.server.requests[0]!;
    const system = systemPromptOf(first);
    expect(system).toContain('## Tools');
    expect(system).toContain('## CRITICAL CONTEXT: CURRENT DATE');
    expect(system).not.toMatch(/CURRENT DATE & TIME|Time:|ISO 8601:/);
    expect(toolNamesOf(first).sort()).toEqual(
      [
        'delegate', // offered whenever an agent is configured (delegate.md §3)
        'file_read',
        'file_write',
        'memory_forget',
        'memory_recall',
        'memory_store',
        'model_switch',
        'send_file', // offered everywhere; with no chat it answers a clear error (media.md §2)
        'shell',
        'spawn_subagent',
      ].sort(),
    );
  });

  it('runs a tool the model chose and feeds its exact result into the next request', async () => {
    h.server.script([
      { toolCalls: [{ id: 'w1', name: 'file_write', arguments: { path: 'notes/a.txt', content: 'alpha' } }] },
      { toolCalls: [{ id: 'r1', name: 'file_read', arguments: { path: 'notes/a.txt' } }] },
      { text: 'done' },
    ]);
    const res = await h.turn('main', 'write then read');
    expect(res.text).toBe('done');
    expect(readFileSync(join(h.dataDir, 'workspaces', 'main', 'notes', 'a.txt'), 'utf8')).toBe('alpha');
    expect(toolResultIn(h.server.requests[2]!, 'r1')).toBe('alpha');
  });

  it('keeps the conversation history per session in Redis', async () => {
    h.server.script([{ text: 'first answer' }, { text: 'second answer' }]);
    await h.turn('main', 'first question', { session: 'history-1' });
    await h.turn('main', 'second question', { session: 'history-1' });
    expect(transcriptOf(h.server.requests[1]!)).toBe(
      'user: first question\nassistant: first answer\nuser: second question',
    );
  });

  it('reports unknown tools, malformed JSON, invalid arguments and duplicates as tool errors', async () => {
    h.server.script([
      {
        toolCalls: [
          { id: 'u1', name: 'no_such_tool', arguments: {} },
          { id: 'j1', name: 'file_read', arguments: '{"path": ' },
          { id: 'v1', name: 'file_read', arguments: { path: 5 } },
        ],
      },
      {
        toolCalls: [
          { id: 'd1', name: 'memory_store', arguments: { key: 'k', content: 'c' } },
          { id: 'd2', name: 'memory_store', arguments: { content: 'c', key: 'k' } },
        ],
      },
      { text: 'ok' },
    ]);
    await h.turn('main', 'go');
    const second = h.server.requests[1]!;
    expect(toolResultIn(second, 'u1')).toMatch(/^Error: Unknown tool 'no_such_tool'\. Available tools: /);
    expect(toolResultIn(second, 'j1')).toBe(
      "Error: Invalid arguments for tool 'file_read': arguments are not valid JSON",
    );
    expect(toolResultIn(second, 'v1')).toMatch(/^Error: Invalid arguments for tool 'file_read': path: /);
    const third = h.server.requests[2]!;
    expect(toolResultIn(third, 'd2')).toBe(
      "Error: Skipped duplicate tool call 'memory_store' with identical arguments in this turn.",
    );
  });

  it('denies by runtime a call that needs an operator when nobody can be asked', async () => {
    h.server.script([
      { toolCalls: [{ id: 'f1', name: 'memory_forget', arguments: { key: 'k' } }] },
      { text: 'ok' },
    ]);
    await h.turn('main', 'forget');
    expect(toolResultIn(h.server.requests[1]!, 'f1')).toBe(`Error: ${runtimeDenialText('memory_forget')}`);
    expect(h.logs.some((l) => l.denied_by_runtime === true && typeof l.operator_hint === 'string')).toBe(
      true,
    );
  });

  it('asks the approver when there is one, and "Denied by user." on a deny', async () => {
    h.server.script([
      { toolCalls: [{ id: 'f2', name: 'memory_forget', arguments: { key: 'k' } }] },
      { text: 'ok' },
    ]);
    await h.turn('main', 'forget', { asker: { ask: async () => 'deny' } });
    expect(toolResultIn(h.server.requests[1]!, 'f2')).toBe('Error: Denied by user.');
  });

  it('truncates long tool output at max_tool_result_chars', async () => {
    h.server.script([
      {
        toolCalls: [
          { id: 'w2', name: 'file_write', arguments: { path: 'long.txt', content: 'x'.repeat(100) } },
        ],
      },
      { toolCalls: [{ id: 'r2', name: 'file_read', arguments: { path: 'long.txt' } }] },
      { text: 'ok' },
    ]);
    await h.turn('short', 'read long');
    expect(toolResultIn(h.server.requests[2]!, 'r2')).toBe(`${'x'.repeat(40)}\n[… 60 characters truncated]`);
  });

  it('model_switch moves the rest of the turn and later turns of the session to another provider', async () => {
    h.server.script([
      { toolCalls: [{ id: 'm0', name: 'model_switch', arguments: { model_provider: 'custom.nope' } }] },
      { toolCalls: [{ id: 'm1', name: 'model_switch', arguments: { model_provider: 'custom.other' } }] },
    ]);
    h.server.script([{ text: 'answered by other' }, { text: 'still other' }], { model: 'other-model' });
    const res = await h.turn('main', 'switch', { session: 'switching' });
    expect(res.text).toBe('answered by other');
    expect(toolResultIn(h.server.requests[1]!, 'm0')).toBe(
      "Error: Unknown model_provider 'custom.nope'. Configured: custom.fake, custom.other",
    );
    expect(toolResultIn(h.server.requests[2]!, 'm1')).toBe(
      "Switched model provider to 'custom.other' (custom/other-model) for this session.",
    );
    expect(h.server.requests.map((r) => r.body.model)).toEqual(['fake-model', 'fake-model', 'other-model']);
    await h.turn('main', 'again', { session: 'switching' });
    expect(h.server.requests.at(-1)!.body.model).toBe('other-model');
  });

  it('model_switch refuses prototype member names like any unknown provider, and the session keeps working', async () => {
    const names = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];
    h.server.script([
      {
        toolCalls: names.map((n, i) => ({
          id: `p${i}`,
          name: 'model_switch',
          arguments: { model_provider: n },
        })),
      },
      { text: 'still on my model' },
      { text: 'next turn fine' },
    ]);
    const res = await h.turn('main', 'switch to something odd', { session: 'proto-switch' });
    expect(res.text).toBe('still on my model');
    names.forEach((n, i) => {
      expect(toolResultIn(h.server.requests[1]!, `p${i}`)).toBe(
        `Error: Unknown model_provider '${n}'. Configured: custom.fake, custom.other`,
      );
    });
    expect(await h.services.sessionModels.get('main', 'proto-switch')).toBeNull();
    await h.turn('main', 'again', { session: 'proto-switch' });
    expect(h.server.requests.map((r) => r.body.model)).toEqual(['fake-model', 'fake-model', 'fake-model']);
  });

  it('a stored session model that names no configured provider is ignored with a log', async () => {
    for (const [i, bad] of ['constructor', '__proto__', 'custom.gone'].entries()) {
      const session = `stored-bad-${i}`;
      await h.services.sessionModels.set('main', session, bad);
      h.server.script([{ text: `answered ${i}` }]);
      const res = await h.turn('main', 'hi', { session });
      expect(res.text).toBe(`answered ${i}`);
      expect(h.server.requests.at(-1)!.body.model).toBe('fake-model');
      expect(h.logs).toContainEqual(
        expect.objectContaining({
          msg: 'stored session model names no configured provider; using the agent default',
          stored_provider: bad,
          session_key: session,
        }),
      );
    }
  });

  it('fails after max_tool_iterations model requests', async () => {
    h.server.respond(() => ({
      toolCalls: [{ name: 'memory_recall', arguments: { query: String(Math.random()) } }],
    }));
    await expect(h.turn('main', 'loop forever')).rejects.toThrow(
      'Agent exceeded maximum tool iterations (3)',
    );
    expect(h.server.requests).toHaveLength(3);
  });

  it('offers only the tools the risk profile admits', async () => {
    h.server.script([{ text: 'ok' }]);
    await h.turn('limited', 'hi');
    expect(toolNamesOf(h.server.requests[0]!).sort()).toEqual(['file_read', 'file_write']);
  });

  it('with a tree budget of 1 the root answers without tools', async () => {
    h.server.script([{ text: 'no tools for me' }]);
    const res = await h.turn('tree', 'hi');
    expect(res.text).toBe('no tools for me');
    expect(h.server.requests[0]!.body.tools ?? []).toEqual([]);
  });

  it('turns an HTTP 500 from every candidate into the safe summary, without the provider body', async () => {
    h.server.script([{ status: 500, body: 'secret internal stack trace' }]);
    const err = await h.turn('main', 'hi').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    const message = (err as Error).message;
    expect(message).toContain('All model providers/models failed after 1 failure event(s). Events:');
    expect(message).not.toContain('secret internal stack trace');
    expect(message).not.toContain(h.server.url);
  });

  it('turns a garbage model reply into a clear error', async () => {
    h.server.script([{ raw: '<html>not json' }]);
    await expect(h.turn('main', 'hi')).rejects.toThrow(/All model providers\/models failed/);
  });
});
