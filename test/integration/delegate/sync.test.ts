// delegate's synchronous path through real turns: schema and roster, argument and gate refusals, one-shot runs.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemPromptOf, toolNamesOf } from '../../fakes/model-requests.ts';
import { type AgentHarness, createAgentHarness } from '../../helpers/agent-harness.ts';
import { ALL_AGENTS, DELEGATE_TOML, delegateCall, MAIN_ROSTER } from './delegate-config.ts';
import { requestsFor, resultOf, userTexts } from './helpers.ts';

const DESCRIPTION =
  'Delegate a subtask to a specialized agent. Use when: a task benefits from a different model (e.g. fast summarization, deep reasoning, code generation). The sub-agent runs a single prompt by default; with agentic=true it can iterate with a filtered tool-call loop. Supports background execution (returns a task_id immediately), batched background waits (await_sessions), and parallel execution (runs multiple agents concurrently).';

let h: AgentHarness;
beforeAll(async () => {
  h = await createAgentHarness('delegate-sync', DELEGATE_TOML);
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

/** Runs one turn of `caller` whose model makes the given delegate calls, then answers "done". */
async function callDelegate(caller: string, calls: Array<{ id: string; args: Record<string, unknown> }>) {
  // Every caller here uses custom.main, so its script is keyed by main-model.
  h.server.script([{ toolCalls: calls.map((c) => delegateCall(c.id, c.args)) }, { text: 'done' }], {
    model: 'main-model',
  });
  await h.turn(caller, 'go');
}

const delegateToolOf = (i: number) =>
  (h.server.requests[i]!.body.tools ?? []).find((t) => (t.function as { name: string }).name === 'delegate')
    ?.function as { name: string; description: string; parameters: Record<string, unknown> } | undefined;

describe('delegate: the tool as the model sees it', () => {
  it('has the exact description and schema, with the sorted reachable roster', async () => {
    h.server.script([{ text: 'hi' }]);
    await h.turn('main', 'hello');
    const tool = delegateToolOf(0);
    expect(tool?.description).toBe(DESCRIPTION);
    const props = tool?.parameters.properties as Record<string, Record<string, unknown>>;
    expect(props.agent).toEqual({
      type: 'string',
      minLength: 1,
      description: `Name of the agent to delegate to. Available: ${MAIN_ROSTER.join(', ')}`,
    });
    expect(props.background?.description).toBe(
      'When true, the sub-agent runs in a background job and returns a task_id immediately. Results are stored to workspace/delegate_results/{task_id}.json.',
    );
    expect(tool?.parameters.required).toEqual([]);
    expect(tool?.parameters.additionalProperties).toBe(false);
    expect(Object.keys(props)).toEqual([
      'action',
      'agent',
      'prompt',
      'context',
      'background',
      'parallel',
      'task_id',
      'task_ids',
      'timeout_ms',
    ]);
  });

  it('advertises (none configured) when the caller may not delegate', async () => {
    h.server.script([{ text: 'hi' }]);
    await h.turn('locked', 'hello');
    const props = delegateToolOf(0)?.parameters.properties as Record<string, { description: string }>;
    expect(props.agent?.description).toBe('Name of the agent to delegate to. Available: (none configured)');
  });
});

describe('delegate: argument checks and refusals, in order', () => {
  it('reports every argument problem with its exact text', async () => {
    await callDelegate('main', [
      { id: 'a1', args: { action: 'explode', agent: 'writer', prompt: 'x' } },
      { id: 'a2', args: { action: 7 } },
      { id: 'a3', args: { prompt: 'x' } },
      { id: 'a4', args: { agent: '   ', prompt: 'x' } },
      { id: 'a5', args: { agent: 'writer' } },
      { id: 'a6', args: { agent: 'writer', prompt: '  ' } },
      { id: 'a7', args: { agent: 'nobody', prompt: 'x' } },
    ]);
    expect(resultOf(h.server, 'a1')).toBe(
      "Error: Unknown action 'explode'. Use delegate/check_result/list_results/cancel_task/await_sessions.",
    );
    expect(resultOf(h.server, 'a2')).toBe(
      "Error: Unknown action '7'. Use delegate/check_result/list_results/cancel_task/await_sessions.",
    );
    expect(resultOf(h.server, 'a3')).toBe("Error: Missing 'agent' parameter");
    expect(resultOf(h.server, 'a4')).toBe("Error: 'agent' parameter must not be empty");
    expect(resultOf(h.server, 'a5')).toBe("Error: Missing 'prompt' parameter");
    expect(resultOf(h.server, 'a6')).toBe("Error: 'prompt' parameter must not be empty");
    expect(resultOf(h.server, 'a7')).toBe(`Error: Unknown agent 'nobody'. Available agents: ${ALL_AGENTS}`);
    expect(requestsFor(h.server, 'fast-model')).toHaveLength(0);
  });

  it('refuses by autonomy, action budget and delegation_policy', async () => {
    await callDelegate('reader', [{ id: 'r1', args: { agent: 'writer', prompt: 'x' } }]);
    expect(resultOf(h.server, 'r1')).toBe(
      "Error: Security policy: read-only mode, cannot perform 'delegate'",
    );
    h.server.reset();
    await callDelegate('broke', [{ id: 'b1', args: { agent: 'writer', prompt: 'x' } }]);
    expect(resultOf(h.server, 'b1')).toBe('Error: Rate limit exceeded: action budget exhausted');
    h.server.reset();
    await callDelegate('locked', [{ id: 'l1', args: { agent: 'writer', prompt: 'x' } }]);
    expect(resultOf(h.server, 'l1')).toBe(
      'Error: delegation is forbidden for caller "locked" by risk profile "locked" delegation_policy; set [risk_profiles.locked].delegation_policy mode = "allow"',
    );
    expect(
      h.logs.some((l) => l.msg === 'delegate refused: caller delegation_policy forbids delegation'),
    ).toBe(true);
  });

  it('refuses unreachable targets with the first matching reason', async () => {
    await callDelegate('main', [
      { id: 'u1', args: { agent: 'off', prompt: 'x' } },
      { id: 'u2', args: { agent: 'stranger', prompt: 'x' } },
    ]);
    expect(resultOf(h.server, 'u1')).toBe(
      'Error: delegate target "off" is not reachable from "main": the target agent is disabled',
    );
    expect(resultOf(h.server, 'u2')).toBe(
      'Error: delegate target "stranger" is not reachable from "main": different risk profile (caller uses "ops", target uses "other"). delegate_same_risk_profile only reaches agents with the same risk profile; add an explicit [agents.main].delegates entry with the intended mode, or change one agent\'s risk_profile.',
    );
    h.server.reset();
    await callDelegate('loner', [{ id: 'u3', args: { agent: 'writer', prompt: 'x' } }]);
    expect(resultOf(h.server, 'u3')).toBe(
      'Error: delegate target "writer" is not reachable from "loner": delegate_same_risk_profile is disabled and the target is not listed in [agents.loner].delegates',
    );
    expect(h.logs.some((l) => l.msg === "delegate refused: target not in caller's reachable set")).toBe(true);
  });

  it('refuses always_ask targets that would need an operator', async () => {
    await callDelegate('main', [
      { id: 'w1', args: { agent: 'askindie', prompt: 'x' } },
      { id: 'w2', args: { agent: 'askbot', prompt: 'x' } },
    ]);
    expect(resultOf(h.server, 'w1')).toBe(
      'Error: delegate target "askindie" cannot run in independent mode from "main": risk profile "asky" has always_ask entries (shell, file_write). See ZeroClaw docs, "Delegation & SubAgents" > "What\'s not supported".',
    );
    expect(resultOf(h.server, 'w2')).toBe(
      'Error: delegate target "askbot" cannot run in bounded agentic mode from "main": risk profile "asky" has always_ask entries (shell, file_write). See ZeroClaw docs, "Delegation & SubAgents" > "What\'s not supported".',
    );
    const keys = h.logs.map((l) => l.error_key).filter(Boolean);
    expect(keys).toContain('delegate.independent_always_ask_unsupported');
    expect(keys).toContain('delegate.bounded_agentic_always_ask_unsupported');
  });

  it('names the target provider type when it cannot be built', async () => {
    await callDelegate('main', [{ id: 'p1', args: { agent: 'noprov', prompt: 'x' } }]);
    expect(resultOf(h.server, 'p1')).toBe(
      "Error: Failed to create model_provider 'custom' for agent 'noprov': no provider configured under \"custom.missing\"",
    );
  });
});

describe('delegate: one-shot targets', () => {
  it('runs one request on the target model with the composed prompt and returns the header form', async () => {
    h.server.script([{ text: '<think>hmm</think>the summary' }], { model: 'fast-model' });
    await callDelegate('main', [
      { id: 'o1', args: { agent: ' writer ', prompt: '  summarise  ', context: '  some code  ', extra: 1 } },
    ]);
    expect(resultOf(h.server, 'o1')).toBe("[Agent 'writer' (custom/fast-model)]\nthe summary");
    const [req] = requestsFor(h.server, 'fast-model');
    expect(userTexts(req!)).toEqual(['[Context]\nsome code\n\n[Task]\nsummarise']);
    expect(toolNamesOf(req!)).toEqual([]);
    const system = systemPromptOf(req!);
    expect(system).not.toContain('## Tools');
    expect(system).toContain('## Workspace');
    expect(system).toContain('## CRITICAL CONTEXT: CURRENT DATE');
  });

  it('sends just the prompt when context is blank', async () => {
    h.server.script([{ text: 'ok' }], { model: 'fast-model' });
    await callDelegate('main', [{ id: 'o2', args: { agent: 'writer', prompt: 'plain', context: '   ' } }]);
    expect(userTexts(requestsFor(h.server, 'fast-model')[0]!)).toEqual(['plain']);
  });

  it('fails an empty completion, including one empty after think removal', async () => {
    h.server.script([{ text: '   ' }, { text: '<think>only thoughts</think>' }], { model: 'fast-model' });
    await callDelegate('main', [
      { id: 'e1', args: { agent: 'writer', prompt: 'x' } },
      { id: 'e2', args: { agent: 'writer', prompt: 'y' } },
    ]);
    const text = "Error: Agent 'writer' failed: model provider returned an invalid semantic completion.";
    expect(resultOf(h.server, 'e1')).toBe(text);
    expect(resultOf(h.server, 'e2')).toBe(text);
  });

  it('times out on the target profile limit, never as a provider failure', async () => {
    h.server.script([{ delayMs: 5000, text: 'late' }], { model: 'fast-model' });
    await callDelegate('main', [{ id: 't1', args: { agent: 'writer', prompt: 'x' } }]);
    expect(resultOf(h.server, 't1')).toBe("Error: Agent 'writer' timed out after 1s");
  });

  it('attributes a fallback with the header and the warning, exactly once', async () => {
    h.server.script([{ status: 500 }], { model: 'primary-model' });
    h.server.script([{ text: 'recovered' }], { model: 'backup-model' });
    await callDelegate('main', [{ id: 'f1', args: { agent: 'flaky', prompt: 'x' } }]);
    expect(resultOf(h.server, 'f1')).toBe(
      "[Agent 'flaky' (requested: custom.primary/primary-model; served: custom.backup/backup-model)]\nrecovered\n\nWarning: The delegated agent recovered through a provider fallback. Provider failure details were logged and omitted from this result.",
    );
  });

  it('reports exhaustion as the safe summary, without endpoints or models', async () => {
    h.server.script([{ status: 500, body: 'secret body' }], { model: 'primary-model' });
    h.server.script([{ status: 401 }], { model: 'backup-model' });
    await callDelegate('main', [{ id: 'f2', args: { agent: 'flaky', prompt: 'x' } }]);
    const text = resultOf(h.server, 'f2') ?? '';
    expect(text).toMatch(
      /^Error: Agent 'flaky' failed: All model providers\/models failed after 2 failure event\(s\)\. Events:\nevent 1 \(retry 1\/1\): retryable.*\nevent 2 \(retry 1\/1\): auth/,
    );
    expect(text).not.toMatch(/primary-model|backup-model|127\.0\.0\.1|secret body|Warning:/);
  });
});
