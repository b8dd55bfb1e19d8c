// What a reload changes for runs (config.md "Reload", delegate.md §15): a turn keeps the tools and roster it
// started with and the next turn gets the new ones; an in-flight delegate meets new [cost] limits at its next
// budget check while the tree's cost mode stays what it was at the root.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runTurn } from '../../../src/agent/run-turn.ts';
import { createLiveConfig, type LiveConfig } from '../../../src/config/live-config.ts';
import type { BatonConfig } from '../../../src/config/types.ts';
import { scanKeys } from '../../../src/core/redis-scan.ts';
import { costKeyPattern, createCostLedger } from '../../../src/cost/ledger.ts';
import { turnServices } from '../../../src/run-contract/live-services.ts';
import { toolNamesOf } from '../../fakes/model-requests.ts';
import { type AgentHarness, createAgentHarness } from '../../helpers/agent-harness.ts';
import { configFromToml } from '../../helpers/test-config.ts';
import { resultOf } from '../delegate/helpers.ts';

const toml = (o: { mode: string; tools?: string; cost?: string }) => `
[redis]
prefix = "\${PREFIX}"

[gateway]
data_dir = "\${DATA_DIR}"

[providers.models.custom.main]
uri = "\${MODEL_URI}"
model = "main-model"

[providers.models.custom.cheap]
uri = "\${MODEL_URI}"
model = "cheap-model"

[reliability]
provider_retries = 0

[cost]
${o.cost ?? 'daily_limit_usd = 1.0'}

[cost.rates.providers.models.custom."cheap-model"]
input_per_mtok = 10.0

[risk_profiles.ops]
delegation_policy = { mode = "${o.mode}" }
auto_approve = ["delegate", "file_read"]
${o.tools ?? ''}

[runtime_profiles.agentic]
agentic = true
max_tool_iterations = 4

[agents.main]
model_provider = "custom.main"
risk_profile = "ops"

[agents.coder]
model_provider = "custom.cheap"
risk_profile = "ops"
runtime_profile = "agentic"
`;

const FORBIDDEN =
  'Error: delegation is forbidden for caller "main" by risk profile "ops" delegation_policy; set [risk_profiles.ops].delegation_policy mode = "allow"';
// One request of 1000 input tokens on cheap-model costs exactly 1 cent.
const CENT = { inputTokens: 1000, outputTokens: 0 };

let h: AgentHarness;
let live: LiveConfig;
let n = 0;

const configOf = (text: string): BatonConfig =>
  configFromToml(text, { env: { MODEL_URI: h.server.openaiBaseUrl, DATA_DIR: h.dataDir, PREFIX: h.prefix } });

/** A turn as the turn worker starts one: with the config current at its start. */
const turn = (agent: string) =>
  runTurn(turnServices(h.services), {
    agentAlias: agent,
    sessionKey: `reload-${++n}`,
    sender: 'test:user',
    message: 'go',
    asker: null,
    signal: new AbortController().signal,
  });

/** Replaces the live config when the first request for `model` arrives (before it is answered). */
function reloadOnFirstRequest(model: string, next: () => BatonConfig): void {
  let done = false;
  h.server.respond((req) => {
    if (!done && req.body.model === model) {
      done = true;
      live.replace(next());
    }
    return undefined;
  });
}

beforeAll(async () => {
  h = await createAgentHarness('reload-runs', toml({ mode: 'forbidden' }));
  live = createLiveConfig(h.services.config);
  h.extend({ liveConfig: live });
});
afterAll(() => h.close());
beforeEach(async () => {
  h.server.reset();
  live.replace(configOf(toml({ mode: 'forbidden' })));
  const keys = await scanKeys(h.redis, costKeyPattern(h.prefix));
  if (keys.length) await h.redis.del(...keys);
});

describe('tools and roster after a reload', () => {
  it('the running turn keeps its snapshot; the next turn gets the new policy and tool set', async () => {
    const allow = toml({ mode: 'allow', tools: 'allowed_tools = ["delegate", "file_read"]' });
    reloadOnFirstRequest('main-model', () => configOf(allow));
    const call = (id: string) => ({ id, name: 'delegate', arguments: { agent: 'coder', prompt: 'x' } });
    h.server.script([{ toolCalls: [call('d1')] }, { text: 'done' }], { model: 'main-model' });
    await turn('main');
    // Reloaded while this turn ran: its delegate call is still judged by the config it started with.
    expect(resultOf(h.server, 'd1')).toBe(FORBIDDEN);
    const [first, second] = h.server.requests;
    expect(toolNamesOf(second!)).toEqual(toolNamesOf(first!));
    expect(toolNamesOf(first!)).toContain('shell');

    h.server.reset();
    h.server.script([{ toolCalls: [call('d2')] }, { text: 'done' }], { model: 'main-model' });
    h.server.script([{ usage: CENT, text: 'hi from coder' }], { model: 'cheap-model' });
    await turn('main');
    expect(resultOf(h.server, 'd2')).toBe("[Agent 'coder' (custom/cheap-model, agentic)]\nhi from coder");
    expect(toolNamesOf(h.server.requests[0]!).sort()).toEqual(['delegate', 'file_read']);
  });
});

describe('cost limits after a reload', () => {
  it('an in-flight delegate meets the new limit at its next check; the tree stays tracked', async () => {
    live.replace(configOf(toml({ mode: 'allow' })));
    // The reload lowers the shared daily limit to 1 cent and turns cost tracking off.
    const cheaper = toml({ mode: 'allow', cost: 'enabled = false\ndaily_limit_usd = 0.01' });
    reloadOnFirstRequest('cheap-model', () => configOf(cheaper));
    h.server.script(
      [
        { toolCalls: [{ id: 'd1', name: 'delegate', arguments: { agent: 'coder', prompt: 'x' } }] },
        { text: 'ok' },
      ],
      { model: 'main-model' },
    );
    h.server.script(
      [
        { usage: CENT, toolCalls: [{ name: 'file_read', arguments: { path: 'x' } }] },
        { usage: CENT, text: 'never' },
      ],
      { model: 'cheap-model' },
    );
    await turn('main');
    expect(resultOf(h.server, 'd1')).toBe(
      "Error: Agent 'coder' failed: shared daily cost limit reached ($0.01 of $0.01)",
    );
    expect(h.server.requests.filter((r) => r.body.model === 'cheap-model')).toHaveLength(1);
    // Still recorded: tracking was decided at the root, before the reload switched it off.
    const snap = await createCostLedger(h.redis, h.prefix, h.services.logger).read(['coder']);
    expect(snap.agents.get('coder')?.own).toBe(10_000);
  });
});
