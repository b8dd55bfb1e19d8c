// spawn_subagent refusals that a model cannot reach through a normal tool set: the configured-profile gate
// and the narrowing validator on a spawn site's overrides (subagents.md §4 step 3, §10).
import { describe, expect, it } from 'vitest';
import type { RunContext } from '../../../../src/run-contract/run-context.ts';
import { createToolRegistry } from '../../../../src/run-contract/tool-registry.ts';
import { createSpawnSubagentTool } from '../../../../src/tools/subagent/spawn-subagent.ts';
import { buildRunContext } from '../../../helpers/run-context.ts';
import { configFromToml } from '../../../helpers/test-config.ts';

const neverRuns = async () => {
  throw new Error('the child must not run');
};

/** Agent `main` on risk profile `p`, whose table holds `riskProfile` (TOML keys). */
function runFor(riskProfile: string): RunContext {
  const config = configFromToml(
    `
[risk_profiles.p]
${riskProfile}
[agents.main]
risk_profile = "p"
model_provider = "custom.x"
`,
    { dataDir: '/tmp/baton-spawn' },
  );
  return buildRunContext({ config, agentAlias: 'main' });
}

const call = (run: RunContext, overrides?: Parameters<typeof createSpawnSubagentTool>[0]['overrides']) =>
  createSpawnSubagentTool({
    buildChildTools: () => createToolRegistry([]),
    executeRun: neverRuns,
    ...(overrides ? { overrides } : {}),
  }).execute({ prompt: 'x' }, { run, toolCallId: 't1', signal: new AbortController().signal });

describe('spawn_subagent refusals', () => {
  const text =
    "spawn_subagent: refused — agent 'main' risk_profile does not list spawn_subagent in allowed_tools";

  it('refuses when the configured profile leaves spawn_subagent out, whatever the live policy says', async () => {
    for (const profile of [
      'deny_all_tools = true',
      'allowed_tools = ["file_read"]',
      'excluded_tools = ["spawn_subagent"]',
    ]) {
      expect(await call(runFor(profile))).toEqual({ success: false, output: '', error: text });
    }
  });

  it('refuses a narrowing override that escalates beyond the parent, with the violation', async () => {
    const run = runFor('');
    const wider = { ...run.policy, autonomy: 'full' as const };
    expect(await call(run, { policy: wider })).toEqual({
      success: false,
      output: '',
      error:
        "subagent spawn failed: subagent policy override escalates beyond parent: subagent autonomy=Full exceeds parent's Supervised",
    });
  });

  it('refuses a memory allowlist override that widens the parent’s', async () => {
    const run = runFor('');
    expect(await call(run, { memoryAllowlist: ['stranger'] })).toEqual({
      success: false,
      output: '',
      error:
        'subagent spawn failed: subagent allowlist override contains alias "stranger" not present on parent\'s memory allowlist; SubAgent overrides may only narrow',
    });
  });
});
