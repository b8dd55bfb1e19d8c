// Thinking settings of root turns on the wire (delegate.md §9.7): native budgets, temperature, prompt prefix.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemPromptOf } from '../../fakes/model-requests.ts';
import type { RecordedRequest } from '../../fakes/model-server.ts';
import { type AgentHarness, createAgentHarness } from '../../helpers/agent-harness.ts';

const TOML = `
[providers.models.custom.warm]
uri = "\${MODEL_URI}"
model = "warm-model"
temperature = 0.2

[providers.models.custom.cold]
uri = "\${MODEL_URI}"
model = "cold-model"

[providers.models.custom.plain]
uri = "\${MODEL_URI}"
model = "plain-model"
temperature = 0.2

[providers.models.anthropic.claude]
uri = "\${MODEL_ROOT}"
model = "claude-fake"
api_key = "sk-ant-test"
temperature = 0.2
max_tokens = 1000

[reliability]
provider_retries = 0

[risk_profiles.default]
auto_approve = ["file_write", "spawn_subagent"]

[runtime_profiles.nativemax]
thinking = { default_level = "max", native_thinking = true }

[runtime_profiles.promptmax]
thinking = { default_level = "max" }

[runtime_profiles.odd]
thinking = { default_level = "turbo", native_thinking = true }

[agents.native]
model_provider = "custom.warm"
risk_profile = "default"
runtime_profile = "nativemax"

[agents.untempered]
model_provider = "custom.cold"
risk_profile = "default"
runtime_profile = "nativemax"

[agents.claude]
model_provider = "anthropic.claude"
risk_profile = "default"
runtime_profile = "nativemax"

[agents.prompty]
model_provider = "custom.plain"
risk_profile = "default"
runtime_profile = "promptmax"

[agents.plain]
model_provider = "custom.plain"
risk_profile = "default"

[agents.odd]
model_provider = "custom.plain"
risk_profile = "default"
runtime_profile = "odd"
`;

const MAX_PREFIX = 'Think very carefully and exhaustively.';

let h: AgentHarness;
beforeAll(async () => {
  h = await createAgentHarness('thinking-root', TOML);
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

const only = (): RecordedRequest => {
  expect(h.server.requests).toHaveLength(1);
  return h.server.requests[0]!;
};

describe('native thinking on a root turn', () => {
  it('openai-compatible: max sends reasoning_effort high and raises 0.2 to exactly 0.3', async () => {
    h.server.script([{ text: 'ok' }]);
    await h.turn('native', 'hi');
    const req = only();
    expect(req.body.temperature).toBe(0.3);
    expect(req.body.reasoning_effort).toBe('high');
    expect(systemPromptOf(req).startsWith('## Tools')).toBe(true);
  });

  it('leaves the temperature unset when the provider entry has none', async () => {
    h.server.script([{ text: 'ok' }]);
    await h.turn('untempered', 'hi');
    const req = only();
    expect('temperature' in req.body).toBe(false);
    expect(req.body.reasoning_effort).toBe('high');
  });

  it('anthropic: max sends a 50000-token budget with max_tokens above it and no temperature', async () => {
    h.server.script([{ text: 'ok' }]);
    await h.turn('claude', 'hi');
    const req = only();
    expect(req.api).toBe('anthropic');
    expect(req.body.thinking).toEqual({ type: 'enabled', budget_tokens: 50000 });
    // the SDK adds the budget to max_tokens (1000 here); the Messages API refuses a temperature with thinking
    expect(req.body.max_tokens).toBe(51000);
    expect('temperature' in req.body).toBe(false);
  });

  it('anthropic: the signed thinking block goes back with its tool call, and stays out of history', async () => {
    h.server.script([
      {
        thinking: { text: 'plan the write', signature: 'sig-1' },
        toolCalls: [{ id: 'toolu_1', name: 'file_write', arguments: { path: 'a.md', content: 'x' } }],
      },
      { text: 'written' },
    ]);
    const res = await h.turn('claude', 'write', { session: 'think-loop' });
    expect(res.text).toBe('written');
    const second = h.server.requests[1]!;
    const assistant = (second.body.messages ?? []).filter((m) => m.role === 'assistant').at(-1)!;
    const content = assistant.content as Array<Record<string, unknown>>;
    expect(content[0]).toEqual({ type: 'thinking', thinking: 'plan the write', signature: 'sig-1' });
    expect(content.some((p) => p.type === 'tool_use' && p.id === 'toolu_1')).toBe(true);
    const history = await h.services.history.load('claude', 'think-loop');
    expect(history.some((m) => m.role === 'assistant' && 'reasoning' in m)).toBe(false);
  });

  it('a spawn_subagent child keeps its parent thinking', async () => {
    h.server.script([
      { toolCalls: [{ id: 's1', name: 'spawn_subagent', arguments: { prompt: 'sub task' } }] },
      { text: 'child done' },
      { text: 'parent done' },
    ]);
    await h.turn('native', 'spawn');
    expect(h.server.requests).toHaveLength(3);
    for (const req of h.server.requests) {
      expect(req.body.temperature).toBe(0.3);
      expect(req.body.reasoning_effort).toBe('high');
    }
  });
});

describe('prompt thinking on a root turn', () => {
  it('max puts the §9.7 sentence first, as its own paragraph, and nothing on the wire', async () => {
    h.server.script([{ text: 'ok' }]);
    await h.turn('prompty', 'hi');
    const req = only();
    const system = systemPromptOf(req);
    expect(system.split('\n\n')[0]).toBe(MAX_PREFIX);
    expect(system.startsWith(`${MAX_PREFIX}\n\n## Tools`)).toBe(true);
    expect(req.body.temperature).toBe(0.2);
    expect('reasoning_effort' in req.body).toBe(false);
  });

  it('an agent without thinking gets neither', async () => {
    h.server.script([{ text: 'ok' }]);
    await h.turn('plain', 'hi');
    const req = only();
    expect(systemPromptOf(req)).not.toContain('Think');
    expect(req.body.temperature).toBe(0.2);
    expect('reasoning_effort' in req.body).toBe(false);
  });
});

describe('an unknown level', () => {
  it('has no effect, does not fail the turn, and is logged once', async () => {
    h.server.script([{ text: 'one' }, { text: 'two' }]);
    expect((await h.turn('odd', 'hi')).text).toBe('one');
    expect((await h.turn('odd', 'again')).text).toBe('two');
    for (const req of h.server.requests) {
      expect(systemPromptOf(req).startsWith('## Tools')).toBe(true);
      expect(req.body.temperature).toBe(0.2);
      expect('reasoning_effort' in req.body).toBe(false);
    }
    const warnings = h.logs.filter((l) => l.msg === 'unknown thinking level; thinking has no effect');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.thinking_level).toBe('turbo');
  });
});
