// Agentic delegation through real turns: tool policy per mode, the sub-delegation grant, depth, loop failures.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toolNamesOf } from '../../fakes/model-requests.ts';
import { type AgentHarness, createAgentHarness } from '../../helpers/agent-harness.ts';
import { DELEGATE_TOML, delegateCall, MAIN_ROSTER } from './delegate-config.ts';
import { requestsFor, resultOf } from './helpers.ts';

let h: AgentHarness;
beforeAll(async () => {
  h = await createAgentHarness('delegate-agentic', DELEGATE_TOML);
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

async function delegateFrom(caller: string, id: string, args: Record<string, unknown>) {
  h.server.script([{ toolCalls: [delegateCall(id, args)] }, { text: 'done' }], { model: 'main-model' });
  await h.turn(caller, 'go');
  return resultOf(h.server, id);
}

const agentDescription = (names: string[]) =>
  `Name of the agent to delegate to. Available: ${names.join(', ')}`;

describe('bounded agentic targets', () => {
  it("run a tool loop over the caller's tools, with memory bound to the target", async () => {
    h.server.script(
      [
        { toolCalls: [{ id: 'm1', name: 'memory_store', arguments: { key: 'finding', content: 'x=1' } }] },
        { text: 'coded it' },
      ],
      { model: 'deep-model' },
    );
    const out = await delegateFrom('main', 'c1', { agent: 'coder', prompt: 'write code' });
    expect(out).toBe("[Agent 'coder' (custom/deep-model, agentic)]\ncoded it");
    const [first] = requestsFor(h.server, 'deep-model');
    const mainTools = toolNamesOf(requestsFor(h.server, 'main-model')[0]!);
    const expected = mainTools.filter((n) => n !== 'spawn_subagent' && n !== 'model_switch');
    expect(toolNamesOf(first!).sort()).toEqual(expected.sort());
    expect(existsSync(join(h.dataDir, 'workspaces', 'coder', 'memory', 'finding.md'))).toBe(true);
    expect(existsSync(join(h.dataDir, 'workspaces', 'main', 'memory', 'finding.md'))).toBe(false);
    // the granted instance is target-bound: it advertises the coder's own roster
    const grant = (first!.body.tools ?? []).find((t) => (t.function as { name: string }).name === 'delegate');
    const props = (grant!.function as { parameters: { properties: Record<string, { description: string }> } })
      .parameters.properties;
    const coderRoster = [
      ...MAIN_ROSTER.filter((a) => !['coder', 'ext', 'indie', 'askindie', 'askbot', 'bare'].includes(a)),
      'main',
    ].sort();
    expect(props.agent?.description).toBe(agentDescription(coderRoster));
  });

  it('lets a granted child delegate further, and refuses management actions there', async () => {
    h.server.script(
      [
        {
          toolCalls: [
            delegateCall('n1', { agent: 'writer', prompt: 'summarise' }),
            delegateCall('n2', { action: 'list_results' }),
          ],
        },
        { text: 'nested ok' },
      ],
      { model: 'deep-model' },
    );
    h.server.script([{ text: 'short summary' }], { model: 'fast-model' });
    const out = await delegateFrom('main', 'c2', { agent: 'coder', prompt: 'go deeper' });
    expect(out).toBe("[Agent 'coder' (custom/deep-model, agentic)]\nnested ok");
    expect(resultOf(h.server, 'n1')).toBe("[Agent 'writer' (custom/fast-model)]\nshort summary");
    expect(resultOf(h.server, 'n2')).toBe(
      "Error: Action 'list_results' is not available in a delegated run; only action='delegate' is allowed. Return the task_id to your caller instead.",
    );
  });

  it("tightens the depth cap hop by hop: the root's cap bounds its subtree", async () => {
    h.server.script(
      [{ toolCalls: [delegateCall('d2', { agent: 'writer', prompt: 'x' })] }, { text: 'capped' }],
      {
        model: 'deep-model',
      },
    );
    const out = await delegateFrom('shallow', 'd1', { agent: 'coder', prompt: 'x' });
    expect(out).toBe("[Agent 'coder' (custom/deep-model, agentic)]\ncapped");
    expect(resultOf(h.server, 'd2')).toBe('Error: Delegation depth limit reached (1/1).');
    expect(requestsFor(h.server, 'fast-model')).toHaveLength(0);
  });

  it('fails past max_tool_iterations, and on an empty answer after a tool result', async () => {
    const loop = { toolCalls: [{ name: 'file_read', arguments: { path: 'nothing.txt' } }] };
    h.server.script([loop, loop, loop], { model: 'deep-model' });
    expect(await delegateFrom('main', 'i1', { agent: 'coder', prompt: 'x' })).toBe(
      "Error: Agent 'coder' failed: Agent exceeded maximum tool iterations (3)",
    );
    h.server.reset();
    h.server.script([loop, { text: '' }], { model: 'deep-model' });
    expect(await delegateFrom('main', 'i2', { agent: 'coder', prompt: 'x' })).toBe(
      "Error: Agent 'coder' failed: model provider returned an invalid semantic completion.",
    );
  });

  it('times out on agentic_timeout_secs', async () => {
    h.server.script([{ delayMs: 6000, text: 'late' }], { model: 'deep-model' });
    expect(await delegateFrom('main', 't1', { agent: 'coder', prompt: 'x' })).toBe(
      "Error: Agent 'coder' timed out after 2s",
    );
  });

  it('attributes only the final response: a fallback tool step leaves no warning', async () => {
    h.server.script([{ status: 500 }, { text: 'final from primary' }], { model: 'primary-model' });
    h.server.script([{ toolCalls: [{ name: 'file_read', arguments: { path: 'a' } }] }], {
      model: 'backup-model',
    });
    expect(await delegateFrom('main', 'f1', { agent: 'flakyagent', prompt: 'x' })).toBe(
      "[Agent 'flakyagent' (custom/primary-model, agentic)]\nfinal from primary",
    );
    h.server.reset();
    h.server.script([{ status: 500 }], { model: 'primary-model' });
    h.server.script([{ text: 'from backup' }], { model: 'backup-model' });
    expect(await delegateFrom('main', 'f2', { agent: 'flakyagent', prompt: 'x' })).toBe(
      "[Agent 'flakyagent' (requested: custom.primary/primary-model; served: custom.backup/backup-model, agentic)]\nfrom backup\n\nWarning: The delegated agent recovered through a provider fallback. Provider failure details were logged and omitted from this result.",
    );
  });

  it('refuses a strict mixed chain before any provider request', async () => {
    expect(await delegateFrom('main', 's1', { agent: 'strictmix', prompt: 'x' })).toBe(
      "Error: Agent 'strictmix' failed: Strict tool parsing cannot run a fallback chain that mixes native-tool and text-only candidates. Configure every reachable candidate to use the same tool protocol, or set strict_tool_parsing to false.",
    );
    expect(requestsFor(h.server, 'mixed-model')).toHaveLength(0);
    expect(requestsFor(h.server, 'text-model')).toHaveLength(0);
  });

  it('gives a zero-tool child a normal model turn', async () => {
    h.server.script([{ text: 'bare answer' }], { model: 'fast-model' });
    expect(await delegateFrom('main', 'z1', { agent: 'bare', prompt: 'x' })).toBe(
      "[Agent 'bare' (custom/fast-model, agentic)]\nbare answer",
    );
    expect(toolNamesOf(requestsFor(h.server, 'fast-model')[0]!)).toEqual([]);
  });

  it("limits a cross-profile bounded target by its own admission rule within the caller's set", async () => {
    h.server.script([{ text: 'ext answer' }], { model: 'fast-model' });
    await delegateFrom('main', 'x1', { agent: 'ext', prompt: 'x' });
    expect(toolNamesOf(requestsFor(h.server, 'fast-model')[0]!).sort()).toEqual([
      'file_read',
      'memory_recall',
      'memory_store',
      'shell',
    ]);
  });
});

describe('independent agentic targets', () => {
  it("get the target's own tool set: never delegate or model_switch", async () => {
    h.server.script([{ text: 'indie answer' }], { model: 'fast-model' });
    expect(await delegateFrom('main', 'y1', { agent: 'indie', prompt: 'x' })).toBe(
      "[Agent 'indie' (custom/fast-model, agentic)]\nindie answer",
    );
    expect(toolNamesOf(requestsFor(h.server, 'fast-model')[0]!).sort()).toEqual([
      'file_read',
      'memory_recall',
      'memory_store',
      'shell',
      'spawn_subagent',
    ]);
  });
});
