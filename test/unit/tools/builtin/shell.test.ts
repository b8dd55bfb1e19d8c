// The shell tool: command policy, approval through the gate, argv execution, timeout, env passthrough, output;
// every case runs with the sandbox off and again with it required (the latter skipped where bwrap cannot run).
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { GateOutcome } from '../../../../src/approval/types.ts';
import { RunAbortedError } from '../../../../src/core/errors.ts';
import { gitGuardEnv } from '../../../../src/security/git-guard.ts';
import { probeSandbox } from '../../../../src/security/sandbox/probe.ts';
import { createShellTool } from '../../../../src/tools/builtin/shell.ts';
import { buildRunContext, createFakeGate, createMemoryBuckets } from '../../../helpers/run-context.ts';
import { configFromToml, type TomlValue, tomlKeys } from '../../../helpers/test-config.ts';

const dataDir = realpathSync(mkdtempSync(join(tmpdir(), 'baton-shell-')));
const ws = join(dataDir, 'workspaces', 'main');
mkdirSync(ws, { recursive: true });
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const COMMANDS = ['echo', 'ls', 'cat', 'touch', 'sleep', 'printenv', 'rm', 'false', 'pwd', 'sh', 'git'];

const bwrap = await probeSandbox();
const MODES = [
  { label: 'sandbox off', sandbox_enabled: false, skip: false },
  { label: 'sandbox required', sandbox_enabled: true, skip: !bwrap.ok },
];
let sandboxEnabled = false;

/** Agent `main` on risk profile `default` (`risk`'s keys over its base) and a runtime profile with `timeout`. */
function setup(risk: Record<string, TomlValue> = {}, gateOutcome: GateOutcome['kind'] = 'run', timeout = 60) {
  const config = configFromToml(
    `
[risk_profiles.default]
${tomlKeys({ allowed_commands: COMMANDS, forbidden_paths: ['/etc', '~/.ssh'], sandbox_enabled: sandboxEnabled, ...risk })}
[runtime_profiles.rt]
shell_timeout_secs = ${timeout}

[agents.main]
risk_profile = "default"
runtime_profile = "rt"
`,
    { dataDir },
  );
  const gate = createFakeGate(gateOutcome);
  const run = buildRunContext({ config, agentAlias: 'main', gate, buckets: createMemoryBuckets() });
  return { gate, ctx: { run, toolCallId: 'c1', signal: run.signal } };
}

const shell = createShellTool();

for (const mode of MODES) {
  describe.skipIf(mode.skip)(
    `shell (${mode.label})${mode.skip && !bwrap.ok ? ` skipped: ${bwrap.reason}` : ''}`,
    () => {
      beforeEach(() => {
        sandboxEnabled = mode.sandbox_enabled;
      });

      it('runs an allowed command in the workspace, without a shell', async () => {
        const { ctx, gate } = setup();
        expect(await shell.execute({ command: 'pwd' }, ctx)).toEqual({
          success: true,
          output: `${ws}\n`,
          error: null,
        });
        // Quotes are parsed, and text that a shell would interpret reaches the program literally.
        const r = await shell.execute({ command: `echo "a;b" '$HOME' "x|y"` }, ctx);
        expect(r.output).toBe('a;b $HOME x|y\n');
        expect(gate.asks).toEqual([]);
      });

      it('refuses a command that is not allowed', async () => {
        const { ctx } = setup();
        expect(await shell.execute({ command: 'whoami' }, ctx)).toEqual({
          success: false,
          output: '',
          error: "Command 'whoami' is not in the allowed_commands list of this agent's risk profile",
        });
      });

      it('rejects shell metacharacters instead of running anything', async () => {
        const { ctx } = setup({ block_high_risk_commands: false });
        for (const command of [
          'echo hi; touch pwned',
          'echo hi && touch pwned',
          'echo $(touch pwned)',
          'echo `touch pwned`',
          'echo hi > pwned',
          'echo hi | cat',
          'echo a\ntouch pwned',
        ]) {
          const r = await shell.execute({ command }, ctx);
          expect(r.success, command).toBe(false);
          expect(r.error).toContain('which needs a shell');
        }
        expect(existsSync(join(ws, 'pwned'))).toBe(false);
      });

      it('blocks high-risk commands', async () => {
        const { ctx, gate } = setup();
        const r = await shell.execute({ command: 'rm -rf somewhere' }, ctx);
        expect(r.error).toBe(
          "Command 'rm' is high-risk and blocked by this agent's risk profile (block_high_risk_commands)",
        );
        expect((await shell.execute({ command: 'sh -c "touch pwned"' }, ctx)).success).toBe(false);
        expect(gate.asks).toEqual([]);
      });

      it('asks the gate for a medium-risk command and runs it when approved', async () => {
        const { ctx, gate } = setup();
        const r = await shell.execute({ command: 'touch approved.txt' }, ctx);
        expect(r.success).toBe(true);
        expect(gate.asks).toEqual([{ tool: 'shell', args: { command: 'touch approved.txt' } }]);
        expect(existsSync(join(ws, 'approved.txt'))).toBe(true);
      });

      it('returns the user-denial text and does not run the command', async () => {
        const { ctx } = setup({}, 'denied_by_user');
        expect(await shell.execute({ command: 'touch denied.txt' }, ctx)).toEqual({
          success: false,
          output: '',
          error: 'Denied by user.',
        });
        expect(existsSync(join(ws, 'denied.txt'))).toBe(false);
      });

      it('returns the runtime-denial text when nobody could decide', async () => {
        const { ctx } = setup({}, 'denied_by_runtime');
        const r = await shell.execute({ command: 'touch nobody.txt' }, ctx);
        expect(r.error).toBe(
          "Tool call not executed: 'shell' requires approval and no operator decision was available, so the runtime denied it by policy. This was not a user's decision.",
        );
        expect(existsSync(join(ws, 'nobody.txt'))).toBe(false);
      });

      it('does not ask for a medium command that does not write when medium-risk approval is off', async () => {
        const { ctx, gate } = setup({ require_approval_for_medium_risk: false });
        expect((await shell.execute({ command: 'git -c color.ui=always --version' }, ctx)).success).toBe(
          true,
        );
        expect(gate.asks).toEqual([]);
      });

      it('asks for a command that writes as file_write would, whatever require_approval_for_medium_risk says', async () => {
        const { ctx, gate } = setup({ require_approval_for_medium_risk: false });
        expect((await shell.execute({ command: 'touch asked.txt' }, ctx)).success).toBe(true);
        expect(gate.asks).toEqual([{ tool: 'shell', args: { command: 'touch asked.txt' } }]);
        // With file_write auto-approved, a shell write is approved the same way.
        const approved = setup({ require_approval_for_medium_risk: false, auto_approve: ['file_write'] });
        expect((await shell.execute({ command: 'touch free.txt' }, approved.ctx)).success).toBe(true);
        expect(approved.gate.asks).toEqual([]);
      });

      it('refuses forbidden and outside path arguments', async () => {
        const { ctx } = setup();
        expect((await shell.execute({ command: 'cat /etc/hostname' }, ctx)).error).toBe(
          "Command argument '/etc/hostname' names a forbidden path",
        );
        expect((await shell.execute({ command: 'ls ../..' }, ctx)).error).toContain(
          'points outside the workspace',
        );
      });

      it('kills a command that outlives shell_timeout_secs', async () => {
        const { ctx } = setup({}, 'run', 1);
        const started = Date.now();
        const r = await shell.execute({ command: 'sleep 5' }, ctx);
        expect(r).toEqual({ success: false, output: '', error: 'Command timed out after 1s and was killed' });
        expect(Date.now() - started).toBeLessThan(4000);
      });

      it('passes only PATH, HOME, LANG, the passthrough variables and the git guard', async () => {
        process.env.BATON_TEST_PASSED = 'visible';
        process.env.BATON_TEST_HIDDEN = 'hidden-value';
        process.env.GIT_SSH_COMMAND = 'touch pwned';
        process.env.GIT_AUTHOR_NAME = 'Agent';
        try {
          const passthrough = ['BATON_TEST_PASSED', 'BATON_TEST_UNSET', 'GIT_SSH_COMMAND', 'GIT_AUTHOR_NAME'];
          const { ctx } = setup({ shell_env_passthrough: passthrough });
          const r = await shell.execute({ command: 'printenv' }, ctx);
          expect(r.success).toBe(true);
          const names = r.output
            .trim()
            .split('\n')
            .map((l) => l.slice(0, l.indexOf('=')))
            .sort();
          const guard = Object.keys(gitGuardEnv([ws]));
          const expected = ['BATON_TEST_PASSED', 'GIT_AUTHOR_NAME', 'HOME', 'LANG', 'PATH', ...guard]
            .filter(
              (n) =>
                n.startsWith('BATON') ||
                n.startsWith('GIT_') ||
                n === 'PAGER' ||
                process.env[n] !== undefined,
            )
            .sort();
          expect(names).toEqual(expected);
          expect(r.output).toContain('BATON_TEST_PASSED=visible');
          expect(r.output).toContain(`GIT_CEILING_DIRECTORIES=${join(dataDir, 'workspaces')}\n`);
          expect(r.output).not.toContain('hidden-value');
          // A passthrough GIT_* variable that could name a program does not get through.
          expect(r.output).not.toContain('GIT_SSH_COMMAND');
        } finally {
          delete process.env.BATON_TEST_PASSED;
          delete process.env.BATON_TEST_HIDDEN;
          delete process.env.GIT_SSH_COMMAND;
          delete process.env.GIT_AUTHOR_NAME;
        }
      });

      it('keeps output and reports the exit code of a failing command, with a STDERR section', async () => {
        const { ctx } = setup();
        const r = await shell.execute({ command: 'ls does-not-exist' }, ctx);
        expect(r.success).toBe(false);
        expect(r.error).toBe('Command exited with code 2');
        expect(r.output).toMatch(/^STDERR:\n.*does-not-exist/);
        expect(await shell.execute({ command: 'false' }, ctx)).toEqual({
          success: false,
          output: '',
          error: 'Command exited with code 1',
        });
      });

      it('kills the command and propagates cancellation when the run is aborted', async () => {
        const { ctx } = setup();
        const abort = new AbortController();
        const started = Date.now();
        const pending = shell.execute({ command: 'sleep 5' }, { ...ctx, signal: abort.signal });
        setTimeout(() => abort.abort(), 100);
        await expect(pending).rejects.toThrow(RunAbortedError);
        expect(Date.now() - started).toBeLessThan(3000);
      });

      it('refuses at level readonly', async () => {
        const { ctx } = setup({ level: 'readonly' });
        expect((await shell.execute({ command: 'ls' }, ctx)).error).toBe(
          "Security policy: read-only mode, cannot perform 'shell'",
        );
      });

      it('never throws on malformed input', async () => {
        const { ctx } = setup();
        for (const input of [undefined, null, {}, { command: 42 }, { command: '' }, { command: '   ' }]) {
          const r = await shell.execute(input as never, ctx);
          expect(r.success).toBe(false);
        }
      });
    },
  );
}

describe('shell: commands that used to pass as low risk (issue 8)', () => {
  beforeEach(() => {
    sandboxEnabled = false;
  });

  it('refuses `git -C . push --force` under the default profile, and asks for it when high risk is unblocked', async () => {
    const blocked = setup();
    expect(await shell.execute({ command: 'git -C . push --force' }, blocked.ctx)).toMatchObject({
      success: false,
      error: "Command 'git' is high-risk and blocked by this agent's risk profile (block_high_risk_commands)",
    });
    expect(blocked.gate.asks).toEqual([]);

    const asked = setup({ block_high_risk_commands: false }, 'denied_by_user');
    expect(await shell.execute({ command: 'git -C . push --force' }, asked.ctx)).toMatchObject({
      success: false,
      error: 'Denied by user.',
    });
    expect(asked.gate.asks).toEqual([{ tool: 'shell', args: { command: 'git -C . push --force' } }]);
  });

  it('never installs an fsmonitor hook without an operator', async () => {
    const { ctx, gate } = setup({ block_high_risk_commands: false }, 'denied_by_user');
    const r = await shell.execute({ command: "git -C . config core.fsmonitor 'touch pwned'" }, ctx);
    expect(r.error).toBe('Denied by user.');
    expect(gate.asks).toHaveLength(1);
    expect(existsSync(join(ws, 'pwned'))).toBe(false);
  });

  it('asks before a command writes a file, as file_write would', async () => {
    const { ctx, gate } = setup({ allowed_commands: ['sort', 'uniq', 'find'] }, 'denied_by_user');
    for (const command of ['sort -o sorted.txt in.txt', 'uniq in.txt uniq.txt', 'find . -fprint found.txt']) {
      expect((await shell.execute({ command }, ctx)).error, command).toBe('Denied by user.');
    }
    expect(gate.asks.map((a) => a.args)).toEqual([
      { command: 'sort -o sorted.txt in.txt' },
      { command: 'uniq in.txt uniq.txt' },
      { command: 'find . -fprint found.txt' },
    ]);
    for (const f of ['sorted.txt', 'uniq.txt', 'found.txt']) expect(existsSync(join(ws, f))).toBe(false);
  });
});
