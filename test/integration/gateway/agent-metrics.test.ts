// The agent loop records into the fleet metrics: a real turn (fake model, real tools) shows up in the rendered text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentHarness, createAgentHarness } from '../../helpers/agent-harness.ts';

const TOML = `
[providers.models.custom.fake]
uri = "\${MODEL_URI}"
model = "fake-model"

[reliability]
provider_retries = 0
provider_backoff_ms = 1

[risk_profiles.default]
auto_approve = ["file_write"]

[runtime_profiles.default]
max_tool_iterations = 3

[agents.main]
model_provider = "custom.fake"
risk_profile = "default"
runtime_profile = "default"
`;

let h: AgentHarness;
beforeAll(async () => {
  h = await createAgentHarness('agent-metrics', TOML);
});
afterAll(() => h.close());

const sampleOf = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('metrics recorded by a turn', () => {
  it('counts the turn, each model request and each finished tool call', async () => {
    const metrics = h.services.metrics;
    expect(metrics).toBeDefined();
    h.server.script([
      { toolCalls: [{ id: 'w1', name: 'file_write', arguments: { path: 'a.txt', content: 'x' } }] },
      { text: 'done' },
    ]);
    await h.turn('main', 'write it');
    await metrics!.flush();
    const text = await metrics!.render();
    expect(sampleOf(text, 'baton_turn_duration_seconds_count{outcome="ok"}')).toBe(1);
    expect(
      sampleOf(text, 'baton_model_request_duration_seconds_count{provider_type="custom",outcome="ok"}'),
    ).toBe(2);
    expect(sampleOf(text, 'baton_tool_calls_total{tool="file_write",success="true"}')).toBe(1);
  });

  it('records a failed model request and a failed turn as errors', async () => {
    const metrics = h.services.metrics!;
    h.server.script([{ status: 400, body: { error: { message: 'bad request' } } }]);
    await expect(h.turn('main', 'fail please')).rejects.toThrow();
    await metrics.flush();
    const text = await metrics.render();
    expect(
      sampleOf(text, 'baton_model_request_duration_seconds_count{provider_type="custom",outcome="error"}'),
    ).toBe(1);
    expect(sampleOf(text, 'baton_turn_duration_seconds_count{outcome="error"}')).toBe(1);
    expect(sampleOf(text, 'baton_errors_total{kind="turn"}')).toBe(1);
    expect(sampleOf(text, 'baton_errors_total{kind="model_request"}')).toBe(1);
  });

  it('counts each call that needed an approval by its outcome', async () => {
    const metrics = h.services.metrics!;
    const forget = (id: string) => ({ toolCalls: [{ id, name: 'memory_forget', arguments: { key: 'k' } }] });
    h.server.script([forget('a1'), { text: 'ok' }]);
    await h.turn('main', 'no operator here');
    h.server.script([forget('a2'), { text: 'ok' }]);
    await h.turn('main', 'operator says yes', { asker: { ask: async () => 'approve' } });
    h.server.script([forget('a3'), { text: 'ok' }]);
    await h.turn('main', 'operator says no', { asker: { ask: async () => 'deny' } });
    await metrics.flush();
    const text = await metrics.render();
    expect(sampleOf(text, 'baton_approvals_total{outcome="denied_by_runtime"}')).toBe(1);
    expect(sampleOf(text, 'baton_approvals_total{outcome="approved"}')).toBe(1);
    expect(sampleOf(text, 'baton_approvals_total{outcome="denied"}')).toBe(1);
  });
});
