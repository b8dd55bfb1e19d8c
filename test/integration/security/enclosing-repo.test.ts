// Security 2, item 3: data_dir inside a checkout (the default ./data in a clone). git run by the agent from its
// workspace must not find the enclosing repository: not read its tracked secret, not write a tag into it.
// Through the agent loop and the fake model, with the sandbox off and required.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../../src/security/sandbox/probe.ts';
import { type AgentHarness, createAgentHarness, toolResultIn } from '../../helpers/agent-harness.ts';

const probe = await probeSandbox();
const SECRET = 'enclosing-secret-4f1a';

// Outside /tmp: the sandbox has a /tmp of its own, which would hide the checkout without any fix.
const checkout = mkdtempSync('/var/tmp/baton-checkout-');
const dataDir = join(checkout, 'data');
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd: checkout,
    env: { PATH: process.env.PATH ?? '' },
  }).toString();

const PROFILE = `auto_approve = ["file_write"]
allowed_commands = ["git"]
require_approval_for_medium_risk = false`;
const TOML = `
[gateway]
data_dir = "${dataDir}"

[providers.models.custom.fake]
uri = "\${MODEL_URI}"
model = "fake-model"

[reliability]
provider_retries = 0

[risk_profiles.off]
${PROFILE}
sandbox_enabled = false

[risk_profiles.sandboxed]
${PROFILE}
sandbox_enabled = true

[agents.off]
model_provider = "custom.fake"
risk_profile = "off"

[agents.sandboxed]
model_provider = "custom.fake"
risk_profile = "sandboxed"
`;

let h: AgentHarness;
beforeAll(async () => {
  git('init', '-q', '.');
  writeFileSync(join(checkout, 'secret.txt'), `${SECRET}\n`);
  git('add', 'secret.txt');
  git('commit', '-qm', 'a tracked secret');
  h = await createAgentHarness('enclosing-repo', TOML);
});
afterAll(async () => {
  await h.close();
  rmSync(checkout, { recursive: true, force: true });
});
beforeEach(() => h.server.reset());

describe('a workspace inside a checkout', () => {
  it('the checkout is a repository that plain git finds from the workspace', () => {
    const ws = join(dataDir, 'workspaces', 'probe');
    mkdirSync(ws, { recursive: true });
    const shown = execFileSync('git', ['show', 'HEAD:secret.txt'], {
      cwd: ws,
      env: { PATH: process.env.PATH },
    });
    expect(shown.toString()).toBe(`${SECRET}\n`);
  });

  for (const agent of ['off', 'sandboxed']) {
    const skip = agent === 'sandboxed' && !probe.ok;
    it.skipIf(skip)(`git from the agent stops at its workspace (${agent})`, async () => {
      h.server.script([
        {
          toolCalls: [
            { id: 'show', name: 'shell', arguments: { command: 'git show HEAD:secret.txt' } },
            { id: 'log', name: 'shell', arguments: { command: 'git log --oneline' } },
            { id: 'tag', name: 'shell', arguments: { command: `git tag planted-${agent}` } },
          ],
        },
        { text: 'done' },
      ]);
      await h.turn(agent, 'look around');
      const results = h.server.requests[1]!;
      for (const id of ['show', 'log', 'tag']) {
        const text = toolResultIn(results, id) ?? '';
        expect(text, id).toMatch(/Error: Command exited with code 128/);
        expect(text, id).toContain('not a git repository');
        expect(text, id).not.toContain(SECRET);
        expect(text, id).not.toContain('a tracked secret');
      }
      expect(git('tag', '-l', `planted-${agent}`)).toBe('');
    });
  }
});
