// Security 2, items 4 and 10: the sandbox shows a command only the system directories and its agent's roots.
// Agent A (level full, so workspace_only is off and only the sandbox stands in the way) reads agent B's
// workspace, a file of the checkout that holds the data dir, and follows a symlink out with `grep -R`. Without
// the sandbox the same calls succeed; with it they find nothing. With workspace_only on, the policy refuses
// `grep -R` before anything runs. Through the agent loop and the fake model.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../../src/security/sandbox/probe.ts';
import { type AgentHarness, createAgentHarness, toolResultIn } from '../../helpers/agent-harness.ts';

const probe = await probeSandbox();
const B_SECRET = 'b-workspace-secret-77c2';
const CHECKOUT_SECRET = 'checkout-secret-19ae';

// Outside /tmp: the sandbox has a /tmp of its own, which would hide all of this without any fix.
const checkout = mkdtempSync('/var/tmp/baton-visibility-');
const dataDir = join(checkout, 'data');
const wsOf = (agent: string) => join(dataDir, 'workspaces', agent);

const TOML = `
[gateway]
data_dir = "${dataDir}"

[providers.models.custom.fake]
uri = "\${MODEL_URI}"
model = "fake-model"

[reliability]
provider_retries = 0

[risk_profiles.open-off]
level = "full"
allowed_commands = ["cat", "ls", "grep"]
sandbox_enabled = false

[risk_profiles.open-sandboxed]
level = "full"
allowed_commands = ["cat", "ls", "grep"]
sandbox_enabled = true

[risk_profiles.confined]
allowed_commands = ["cat", "ls", "grep"]
sandbox_enabled = false

[agents.a]
model_provider = "custom.fake"
risk_profile = "open-sandboxed"

[agents.a-off]
model_provider = "custom.fake"
risk_profile = "open-off"

[agents.confined]
model_provider = "custom.fake"
risk_profile = "confined"

[agents.b]
model_provider = "custom.fake"
risk_profile = "open-off"
`;

const CALLS = [
  { id: 'cat-b', command: `cat ${join(wsOf('b'), 'notes.txt')}` },
  { id: 'ls-b', command: `ls ${wsOf('b')}` },
  { id: 'cat-checkout', command: `cat ${join(checkout, 'secret.txt')}` },
  { id: 'ls-data', command: `ls ${join(dataDir, 'workspaces')}` },
  { id: 'grep-link', command: 'grep -R secret .' },
  { id: 'ls-own', command: 'ls' },
];

let h: AgentHarness;
beforeAll(async () => {
  writeFileSync(join(checkout, 'secret.txt'), `${CHECKOUT_SECRET}\n`);
  h = await createAgentHarness('sandbox-visibility', TOML);
  for (const agent of ['a', 'a-off', 'confined', 'b']) mkdirSync(wsOf(agent), { recursive: true });
  writeFileSync(join(wsOf('b'), 'notes.txt'), `${B_SECRET}\n`);
  // A link in the agent's own workspace to the enclosing checkout.
  for (const agent of ['a', 'a-off', 'confined']) symlinkSync(checkout, join(wsOf(agent), 'link'));
});
afterAll(async () => {
  await h.close();
  rmSync(checkout, { recursive: true, force: true });
});
beforeEach(() => h.server.reset());

async function runCalls(agent: string) {
  h.server.script([
    { toolCalls: CALLS.map((c) => ({ id: c.id, name: 'shell', arguments: { command: c.command } })) },
    { text: 'done' },
  ]);
  await h.turn(agent, 'look around');
  const results = h.server.requests[1]!;
  return Object.fromEntries(CALLS.map((c) => [c.id, toolResultIn(results, c.id) ?? '']));
}

describe('what a shell command can see', () => {
  it('without the sandbox, the other workspace, the checkout and the link target are all readable', async () => {
    const r = await runCalls('a-off');
    expect(r['cat-b']).toBe(`${B_SECRET}\n`);
    expect(r['ls-b']).toBe('notes.txt\n');
    expect(r['cat-checkout']).toBe(`${CHECKOUT_SECRET}\n`);
    expect(r['grep-link']).toContain(CHECKOUT_SECRET);
  });

  it.skipIf(!probe.ok)(
    'with the sandbox, none of them exists, and the own workspace still works',
    async () => {
      const r = await runCalls('a');
      expect(r['ls-own']).toBe('link\n');
      for (const id of ['cat-b', 'ls-b', 'cat-checkout']) {
        expect(r[id], id).toMatch(/Error: Command exited with code [12]/);
        expect(r[id], id).toContain('No such file or directory');
      }
      // The data dir holds only the mount point of the own workspace.
      expect(r['ls-data']).toBe('a\n');
      // grep -R follows ./link into the checkout, of which only the path down to this workspace is there.
      expect(r['grep-link']).not.toContain(CHECKOUT_SECRET);
      // Only the empty mount-point directories above the own workspace are there (grep reports the loop back).
      expect(r['grep-link']).toMatch(
        /^STDERR:\ngrep: \.\/link\/data\/workspaces\/a: warning: recursive directory loop\n/,
      );
      expect(r['grep-link']).toMatch(/Error: Command exited with code 1$/);
    },
  );

  it('with workspace_only on, the policy refuses a reader that follows links, before it runs', async () => {
    const r = await runCalls('confined');
    expect(r['grep-link']).toBe(
      "Error: Command 'grep' with '-R' follows symbolic links while it reads recursively, which can leave the workspace (workspace_only is on); read recursively without following links (for example grep -r instead of grep -R)",
    );
    expect(r['cat-b']).toContain('points outside the workspace and allowed roots');
  });
});
