// Parallel fan-out through real turns: all-or-nothing validation, concurrent children, the exact output blocks.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AgentHarness, createAgentHarness } from '../../helpers/agent-harness.ts';
import { ALL_AGENTS, DELEGATE_TOML, delegateCall } from './delegate-config.ts';
import { requestsFor, resultOf } from './helpers.ts';

let h: AgentHarness;
beforeAll(async () => {
  h = await createAgentHarness('delegate-parallel', DELEGATE_TOML);
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

async function parallelFrom(caller: string, id: string, args: Record<string, unknown>) {
  h.server.script([{ toolCalls: [delegateCall(id, args)] }, { text: 'done' }], { model: 'main-model' });
  await h.turn(caller, 'go');
  return resultOf(h.server, id);
}

const WARNING =
  'Warning: The delegated agent recovered through a provider fallback. Provider failure details were logged and omitted from this result.';

describe('parallel delegation', () => {
  it('validates the whole request before any child starts', async () => {
    expect(await parallelFrom('main', 'v1', { parallel: ['writer'] })).toBe(
      "Error: Missing 'prompt' parameter for parallel execution",
    );
    expect(await parallelFrom('main', 'v2', { parallel: ['writer'], prompt: ' ' })).toBe(
      "Error: 'prompt' parameter must not be empty",
    );
    expect(await parallelFrom('main', 'v3', { parallel: [' ', 4, ''], prompt: 'x' })).toBe(
      "Error: 'parallel' array must contain at least one agent name",
    );
    expect(await parallelFrom('main', 'v4', { parallel: ['writer', 'ghost'], prompt: 'x' })).toBe(
      `Error: Unknown agent 'ghost' in parallel list. Available: ${ALL_AGENTS}`,
    );
    expect(
      await parallelFrom('main', 'v5', { parallel: ['writer', 'stranger'], prompt: 'x', background: true }),
    ).toBe(
      'Error: delegate target "stranger" is not reachable from "main": different risk profile (caller uses "ops", target uses "other"). delegate_same_risk_profile only reaches agents with the same risk profile; add an explicit [agents.main].delegates entry with the intended mode, or change one agent\'s risk_profile.',
    );
    expect(requestsFor(h.server, 'fast-model')).toHaveLength(0);
  });

  it('checks depth once with the caller instance', async () => {
    h.server.script(
      [{ toolCalls: [delegateCall('d2', { parallel: ['writer'], prompt: 'x' })] }, { text: 'ok' }],
      {
        model: 'deep-model',
      },
    );
    await parallelFrom('shallow', 'd1', { agent: 'coder', prompt: 'x' });
    expect(resultOf(h.server, 'd2')).toBe('Error: Delegation depth limit reached (1/1).');
  });

  it('runs children concurrently and joins their blocks in list order', async () => {
    h.server.script([{ delayMs: 1500, text: 'coder says' }], { model: 'deep-model' });
    h.server.script([{ status: 500 }], { model: 'primary-model' });
    h.server.script([{ text: 'flaky says' }], { model: 'backup-model' });
    h.server.script(
      [
        { toolCalls: [delegateCall('p1', { parallel: [' coder ', 'flaky'], prompt: 'both' })] },
        { text: 'done' },
      ],
      {
        model: 'main-model',
      },
    );
    const turn = h.turn('main', 'go');
    // The second child's requests arrive while the first is still waiting on its 1.5 s reply.
    await h.server.waitForRequests(4, 1200);
    expect(requestsFor(h.server, 'backup-model')).toHaveLength(1);
    await turn;
    expect(resultOf(h.server, 'p1')).toBe(
      `[Parallel delegation: 2 agents]\n\n--- coder (success=true) ---\n[Agent 'coder' (custom/deep-model, agentic)]\ncoder says\n\n--- flaky (success=true) ---\n[Agent 'flaky' (requested: custom.primary/primary-model; served: custom.backup/backup-model)]\nflaky says\n\n${WARNING}`,
    );
  });

  it('fails the whole call when one child fails, keeping every block', async () => {
    h.server.script([{ text: '' }], { model: 'fast-model' });
    h.server.script([{ text: 'fine' }], { model: 'deep-model' });
    const out = await parallelFrom('main', 'p2', { parallel: ['writer', 'coder'], prompt: 'x' });
    expect(out).toBe(
      "[Parallel delegation: 2 agents]\n\n--- writer (success=false) ---\nError: Agent 'writer' failed: model provider returned an invalid semantic completion.\n\n--- coder (success=true) ---\n[Agent 'coder' (custom/deep-model, agentic)]\nfine\n\nError: One or more parallel agents failed",
    );
  });

  it('charges one action per child, so one child can hit the rate limit', async () => {
    // broke's max_actions_per_hour = 0 refuses each child's own action, child by child.
    const out = await parallelFrom('broke', 'p3', { parallel: ['writer', 'writer'], prompt: 'x' });
    expect(out).toBe(
      '[Parallel delegation: 2 agents]\n\n--- writer (success=false) ---\nError: Rate limit exceeded: action budget exhausted\n\n--- writer (success=false) ---\nError: Rate limit exceeded: action budget exhausted\n\nError: One or more parallel agents failed',
    );
  });
});
