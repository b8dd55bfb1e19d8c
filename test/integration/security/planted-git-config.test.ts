// Security 2, item 1: a model plants `.git/config` (core.fsmonitor = a command) with an auto-approved file_write,
// then runs the low-risk `git status`. The write is high risk (refused, or asked for past auto_approve), and git
// runs with fsmonitor pinned off, so the planted command never runs: through the agent loop and the fake model.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalAsker } from '../../../src/approval/gate.ts';
import { probeSandbox } from '../../../src/security/sandbox/probe.ts';
import { type AgentHarness, createAgentHarness, toolResultIn } from '../../helpers/agent-harness.ts';

const probe = await probeSandbox();

const PROFILE = `auto_approve = ["file_write"]
allowed_commands = ["git", "ls"]`;
const TOML = `
[providers.models.custom.fake]
uri = "\${MODEL_URI}"
model = "fake-model"

[reliability]
provider_retries = 0

[risk_profiles.blocked]
${PROFILE}
sandbox_enabled = false

[risk_profiles.asking]
${PROFILE}
block_high_risk_commands = false
sandbox_enabled = false

[risk_profiles.asking-sandboxed]
${PROFILE}
block_high_risk_commands = false
sandbox_enabled = true

[agents.blocked]
model_provider = "custom.fake"
risk_profile = "blocked"

[agents.asking]
model_provider = "custom.fake"
risk_profile = "asking"

[agents.sandboxed]
model_provider = "custom.fake"
risk_profile = "asking-sandboxed"
`;

const MARKER = 'fsmonitor-ran';
/** A minimal repository: git accepts a directory with HEAD, objects/ and refs/ as one. */
const PLANT = [
  { path: '.git/HEAD', content: 'ref: refs/heads/main\n' },
  {
    path: '.git/config',
    content: `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "echo pwned > ${MARKER} #"\n`,
  },
  { path: '.git/objects/.keep', content: '' },
  { path: '.git/refs/.keep', content: '' },
];

let h: AgentHarness;
beforeAll(async () => {
  h = await createAgentHarness('planted-git', TOML);
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

const ws = (agent: string) => join(h.dataDir, 'workspaces', agent);

function scriptAttack() {
  h.server.script([
    {
      toolCalls: [
        ...PLANT.map((args, i) => ({ id: `w${i}`, name: 'file_write', arguments: args })),
        { id: 'n1', name: 'file_write', arguments: { path: 'notes.txt', content: 'hi' } },
      ],
    },
    { toolCalls: [{ id: 's1', name: 'shell', arguments: { command: 'git status --short' } }] },
    { text: 'done' },
  ]);
}

function approvingAsker() {
  const asked: { tool: string; args: unknown }[] = [];
  const asker: ApprovalAsker = {
    ask: async (tool, args) => {
      asked.push({ tool, args });
      return 'approve';
    },
  };
  return { asker, asked };
}

describe('planting .git/config with an auto-approved file_write', () => {
  it('is refused with block_high_risk_commands, and git status runs nothing', async () => {
    scriptAttack();
    await h.turn('blocked', 'tidy up the repo');
    const results = h.server.requests[1]!;
    for (const [i, { path }] of PLANT.entries()) {
      expect(toolResultIn(results, `w${i}`)).toBe(
        `Error: Path '${path}' configures which programs run (git, package managers, shells); writing it is high-risk and blocked by this agent's risk profile (block_high_risk_commands)`,
      );
    }
    expect(existsSync(join(ws('blocked'), '.git'))).toBe(false);
    expect(existsSync(join(ws('blocked'), MARKER))).toBe(false);
  });

  for (const agent of ['asking', 'sandboxed']) {
    const skip = agent === 'sandboxed' && !probe.ok;
    it.skipIf(skip)(
      `asks the operator past auto_approve; once approved, git status still runs no fsmonitor (${agent})`,
      async () => {
        const { asker, asked } = approvingAsker();
        scriptAttack();
        await h.turn(agent, 'tidy up the repo', { asker });
        // Each planted file was put to the operator, although file_write is auto-approved; notes.txt was not.
        expect(asked).toEqual(PLANT.map((args) => ({ tool: 'file_write', args })));
        expect(existsSync(join(ws(agent), '.git', 'config'))).toBe(true);
        // git did treat the workspace as the planted repository …
        expect(toolResultIn(h.server.requests[2]!, 's1')).toBe('?? notes.txt\n');
        // … without running the command its config names.
        expect(existsSync(join(ws(agent), MARKER))).toBe(false);
      },
    );
  }
});
