// Shared config and ledger helpers of the [cost.enforcement] and warn_at_percent tests.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { runTurn } from '../../../src/agent/run-turn.ts';
import { scanKeys } from '../../../src/core/redis-scan.ts';
import { costKeyPattern, createCostLedger } from '../../../src/cost/ledger.ts';
import type { RuntimeServices } from '../../../src/run-contract/run-context.ts';
import { type AgentHarness, createAgentHarness } from '../../helpers/agent-harness.ts';

// 1000 input tokens cost 1 cent on main-model (10 USD/Mtok) and 0.1 cent on small-model (1 USD/Mtok).
// Limits: $1.00 a day, $2.00 a month; route_down from 90%, warn_at_percent 80.
export const ENFORCEMENT_TOML = `
[providers.models.custom.main]
uri = "\${MODEL_URI}"
model = "main-model"

[providers.models.custom.small]
uri = "\${MODEL_URI}"
model = "small-model"

[reliability]
provider_retries = 0

[cost]
daily_limit_usd = 1.0
monthly_limit_usd = 2.0
warn_at_percent = 80

[cost.enforcement]
mode = "warn"
route_down_model = "custom.small"
reserve_percent = 10

[cost.rates.providers.models.custom."main-model"]
input_per_mtok = 10.0

[cost.rates.providers.models.custom."small-model"]
input_per_mtok = 1.0

[risk_profiles.ops]
delegation_policy = { mode = "allow" }
auto_approve = ["delegate", "spawn_subagent", "file_read"]

[runtime_profiles.agentic]
agentic = true
max_tool_iterations = 4

[agents.boss]
model_provider = "custom.main"
risk_profile = "ops"

[agents.coder]
model_provider = "custom.main"
risk_profile = "ops"
runtime_profile = "agentic"
`;

export const CENT = { inputTokens: 1000, outputTokens: 0 };
export const USD = 1_000_000;

export type Mode = 'warn' | 'block' | 'route_down';

/** What a reload of `[cost.enforcement] mode` does: the next check reads the current config. */
export function setMode(h: AgentHarness, mode: Mode): void {
  h.services.config.cost.enforcement.mode = mode;
}

export async function clearLedger(h: AgentHarness): Promise<void> {
  const keys = await scanKeys(h.redis, costKeyPattern(h.prefix));
  if (keys.length) await h.redis.del(...keys);
}

/** Sets the shared totals directly (micro-dollars), as other workers' spend would. */
export async function seedTotals(h: AgentHarness, day: number, month = day): Promise<void> {
  const k = h.services.cost!.keys();
  await h.redis.set(k.day, day);
  await h.redis.set(k.month, month);
}

export async function totals(h: AgentHarness): Promise<{ day: number; month: number }> {
  const k = h.services.cost!.keys();
  const [day, month] = await h.redis.mget(k.day, k.month);
  return { day: Number(day ?? 0), month: Number(month ?? 0) };
}

export const warnings = (h: AgentHarness, msg: string) =>
  h.logs.filter((l) => l.level === 40 && l.msg === msg);

export const modelsAsked = (h: AgentHarness) => h.server.requests.map((r) => r.body.model);

/**
 * The file's harness (a stand-in object that forwards to it), reset before each test: mode "warn", an empty
 * ledger, no logs and no recorded requests.
 */
export function useEnforcementHarness(name: string): AgentHarness {
  let current: AgentHarness | undefined;
  beforeAll(async () => {
    current = await createAgentHarness(name, ENFORCEMENT_TOML);
  });
  afterAll(() => current?.close());
  beforeEach(async () => {
    const h = current!;
    h.server.reset();
    h.logs.length = 0;
    setMode(h, 'warn');
    await clearLedger(h);
  });
  return new Proxy({} as AgentHarness, { get: (_, key) => Reflect.get(current!, key) });
}

/** Services with a ledger of their own, like another worker process: no recent totals in memory. */
export const withOwnLedger = (h: AgentHarness): RuntimeServices => ({
  ...h.services,
  cost: createCostLedger(h.redis, h.prefix, h.services.logger),
});

/** A root turn of `boss` on `services`, in a session of its own. */
export const bossTurn = (services: RuntimeServices, message: string) =>
  runTurn(services, {
    agentAlias: 'boss',
    sessionKey: `s-${Math.random()}`,
    sender: 'test:user',
    message,
    asker: null,
    signal: new AbortController().signal,
  });
