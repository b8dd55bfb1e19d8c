// Security 2, item 1 (second layer): a repository whose own config and attributes name commands (fsmonitor, a
// hook, an external diff, a textconv driver) that low-risk git commands would run. Through the real shell tool,
// with the sandbox off and required, git runs none of them and still answers.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../../src/security/sandbox/probe.ts';
import { createShellTool } from '../../../src/tools/builtin/shell.ts';
import { buildRunContext, createFakeGate, createMemoryBuckets } from '../../helpers/run-context.ts';
import { configFromToml } from '../../helpers/test-config.ts';

const probe = await probeSandbox();
const dataDir = realpathSync(mkdtempSync(join(tmpdir(), 'baton-git-guard-')));
const ws = join(dataDir, 'workspaces', 'main');
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const marker = (name: string) => join(ws, 'ran', name);
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd: ws,
    env: { PATH: process.env.PATH ?? '' },
  });

/** A committed file, then config and attributes that the model could have planted, then a change to diff. */
function plantRepository() {
  mkdirSync(join(ws, 'ran'), { recursive: true });
  git('init', '-q', '.');
  writeFileSync(join(ws, 'a.txt'), 'one\n');
  writeFileSync(join(ws, '.gitattributes'), '*.txt diff=conv\n');
  git('add', 'a.txt', '.gitattributes');
  git('commit', '-qm', 'first');
  git('config', 'core.fsmonitor', `touch ${marker('fsmonitor')} #`);
  git('config', 'diff.external', `touch ${marker('external-diff')} #`);
  git('config', 'diff.conv.textconv', `touch ${marker('textconv')}; cat`);
  const hook = join(ws, '.git', 'hooks', 'post-index-change');
  writeFileSync(hook, `#!/bin/sh\ntouch ${marker('hook')}\n`);
  chmodSync(hook, 0o755);
  writeFileSync(join(ws, 'a.txt'), 'one\ntwo\n');
}
plantRepository();

const clearMarkers = () => {
  rmSync(join(ws, 'ran'), { recursive: true, force: true });
  mkdirSync(join(ws, 'ran'));
};
beforeEach(clearMarkers);

const MODES = [
  { label: 'sandbox off', sandbox_enabled: false, skip: false },
  { label: 'sandbox required', sandbox_enabled: true, skip: !probe.ok },
];

function context(sandboxEnabled: boolean) {
  const config = configFromToml(
    `
[risk_profiles.default]
allowed_commands = ["git"]
sandbox_enabled = ${sandboxEnabled}

[agents.main]
risk_profile = "default"
`,
    { dataDir },
  );
  const gate = createFakeGate('denied_by_user');
  const run = buildRunContext({ config, agentAlias: 'main', gate, buckets: createMemoryBuckets() });
  return { gate, ctx: { run, toolCallId: 'c1', signal: run.signal } };
}

const shell = createShellTool();

for (const mode of MODES) {
  const why = mode.skip && !probe.ok ? ` (skipped: ${probe.reason})` : '';
  describe.skipIf(mode.skip)(`planted git config (${mode.label})${why}`, () => {
    it.each([
      ['git status --short', ' M a.txt\n'],
      ['git diff', '+two'],
      ['git log -p', '+one'],
      ['git show HEAD', '+one'],
      ['git blame a.txt', 'Not Committed Yet'],
    ])('%s runs nothing the repository names', async (command, expected) => {
      const { ctx, gate } = context(mode.sandbox_enabled);
      const r = await shell.execute({ command }, ctx);
      expect(gate.asks).toEqual([]);
      expect(r.success, r.output).toBe(true);
      expect(r.output).toContain(expected);
      expect(readdirSync(join(ws, 'ran'))).toEqual([]);
    });
  });
}

describe('the planted config is live (without the guard these commands run it)', () => {
  it('plain git runs the fsmonitor and the external diff', () => {
    git('diff');
    expect(existsSync(marker('fsmonitor'))).toBe(true);
    expect(existsSync(marker('external-diff'))).toBe(true);
  });
});
