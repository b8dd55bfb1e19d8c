// The same whole path over the Anthropic messages format: tools chosen by the model, results fed back.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemPromptOf, toolNamesOf } from '../../fakes/model-requests.ts';
import { type AgentHarness, createAgentHarness, toolResultIn } from '../../helpers/agent-harness.ts';

const TOML = `
[providers.models.anthropic.fake]
uri = "\${MODEL_ROOT}"
model = "claude-fake"
api_key = "sk-ant-test"

[reliability]
provider_retries = 0

[risk_profiles.default]
auto_approve = ["file_write", "spawn_subagent"]

[agents.main]
model_provider = "anthropic.fake"
risk_profile = "default"
`;

let h: AgentHarness;
beforeAll(async () => {
  h = await createAgentHarness('anthropic-turn', TOML);
});
afterAll(() => h.close());

describe('a turn on an anthropic provider', () => {
  it('runs the tools the model chose and shows it their exact results', async () => {
    h.server.script([
      { toolCalls: [{ id: 'toolu_w', name: 'file_write', arguments: { path: 'a.md', content: 'hello' } }] },
      { toolCalls: [{ id: 'toolu_s', name: 'spawn_subagent', arguments: { prompt: 'sub task' } }] },
      { text: 'child says hi' },
      { text: 'all done' },
    ]);
    const res = await h.turn('main', 'go');
    expect(res.text).toBe('all done');
    const [first, second, child, last] = h.server.requests;
    expect(first!.api).toBe('anthropic');
    expect(first!.headers['x-api-key']).toBe('sk-ant-test');
    expect(systemPromptOf(first!)).toContain('## CRITICAL CONTEXT: CURRENT DATE');
    expect(toolNamesOf(first!)).toContain('spawn_subagent');
    expect(readFileSync(join(h.dataDir, 'workspaces', 'main', 'a.md'), 'utf8')).toBe('hello');
    expect(toolResultIn(second!, 'toolu_w')).toBe('Wrote 5 bytes to a.md');
    expect(toolNamesOf(child!)).not.toContain('model_switch');
    expect(toolResultIn(last!, 'toolu_s')).toBe('child says hi');
  });
});
