// The bubblewrap sandbox with real bwrap (config.md §10.2): each command that the sandbox stops is shown to work
// without it, so every assertion can fail. The sandbox-on cases are skipped, with the probe's reason, where
// bwrap cannot run; the sandbox-off cases run everywhere.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../../src/security/sandbox/probe.ts';
import { createShellSandbox } from '../../../src/security/sandbox/shell-sandbox.ts';
import { exitCode, makeTree, OFF, output, policyFor, runIn } from './sandbox-fixture.ts';

const probe = await probeSandbox();
const skipReason = probe.ok ? '' : ` (skipped: ${probe.reason})`;
const box = createShellSandbox();
const t = makeTree();
afterAll(() => t.remove());

const REDIS_PORT = Number(new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379').port || 6379);
const connectToRedis = ['bash', '-c', `exec 3<>/dev/tcp/127.0.0.1/${REDIS_PORT}`];
const writeTo = (file: string) => ['sh', '-c', `echo written > '${file}'`];

/** A process whose initial environment carries a canary, standing in for baton's own process. */
function startCanaryProcess(canary: string) {
  const child = spawn('sleep', ['600'], { env: { PATH: process.env.PATH, BATON_CANARY: canary } });
  return {
    pid: new Promise<number>((resolve) => child.once('spawn', () => resolve(child.pid ?? -1))),
    stop: () => child.kill('SIGKILL'),
  };
}

describe('without the sandbox (the same commands succeed)', () => {
  const policy = policyFor(t, { sandbox: OFF });

  it('writes outside the workspace, reads forbidden paths, reaches Redis and reads another environ', async () => {
    const file = join(t.outside, 'unsandboxed.txt');
    expect(exitCode(await runIn(box, policy, writeTo(file)))).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('written\n');
    expect(output(await runIn(box, policy, ['cat', join(t.secretDir, 'key'), t.secretFile]))).toBe(
      'dir-secret-value\nfile-secret-value\n',
    );
    expect(exitCode(await runIn(box, policy, connectToRedis))).toBe(0);
    const canary = startCanaryProcess('canary-off-7d1c');
    try {
      const r = await runIn(box, policy, ['cat', `/proc/${await canary.pid}/environ`]);
      expect(output(r)).toContain('BATON_CANARY=canary-off-7d1c');
    } finally {
      canary.stop();
    }
  });

  it('passes the argv through unchanged', async () => {
    expect(await box.prepare(policy, ['ls', '-la'])).toEqual({ ok: true, argv: ['ls', '-la'], mode: 'off' });
  });
});

describe.skipIf(!probe.ok)(`with the sandbox on${skipReason}`, () => {
  const policy = policyFor(t);

  it('runs the command through bwrap', async () => {
    const prepared = await box.prepare(policy, ['ls']);
    expect(prepared.ok && prepared.mode).toBe('sandboxed');
    expect(prepared.ok && prepared.argv[0]).toBe('bwrap');
  });

  it('cannot write outside the workspace; the same write inside it works', async () => {
    const outsideFile = join(t.outside, 'escape.txt');
    const r = await runIn(box, policy, writeTo(outsideFile));
    expect(exitCode(r)).not.toBe(0);
    // Outside the roots nothing of the host is there; the system directories and the root are read-only.
    expect(output(r)).toContain('Directory nonexistent');
    expect(existsSync(outsideFile)).toBe(false);
    for (const file of ['/usr/baton-escape', '/baton-escape']) {
      expect(output(await runIn(box, policy, writeTo(file)))).toContain('Read-only file system');
    }

    const insideFile = join(t.ws, 'inside.txt');
    expect(exitCode(await runIn(box, policy, writeTo(insideFile)))).toBe(0);
    expect(readFileSync(insideFile, 'utf8')).toBe('written\n');
  });

  it('writes in allowed roots, not in read-only roots, and not even in the workspace at level readonly', async () => {
    const shared = join(t.base, 'shared');
    mkdirSync(shared, { recursive: true });
    const roots = policyFor(t, { allowedRoots: [t.outside], allowedRootsReadOnly: [shared] });
    expect(exitCode(await runIn(box, roots, writeTo(join(t.outside, 'root.txt'))))).toBe(0);
    expect(readFileSync(join(t.outside, 'root.txt'), 'utf8')).toBe('written\n');
    expect(output(await runIn(box, roots, writeTo(join(shared, 'x.txt'))))).toContain(
      'Read-only file system',
    );

    const readonly = policyFor(t, { autonomy: 'readonly' });
    const r = await runIn(box, readonly, writeTo(join(t.ws, 'ro.txt')));
    expect(output(r)).toContain('Read-only file system');
    expect(existsSync(join(t.ws, 'ro.txt'))).toBe(false);
  });

  it('cannot see forbidden paths (a directory is empty, a file is an unreadable device node)', async () => {
    const dir = await runIn(box, policy, ['cat', join(t.secretDir, 'key')]);
    expect(exitCode(dir)).not.toBe(0);
    expect(output(dir)).not.toContain('dir-secret-value');
    const file = await runIn(box, policy, ['cat', t.secretFile]);
    expect(exitCode(file)).not.toBe(0);
    expect(output(file)).not.toContain('file-secret-value');
    // /etc is on the default forbidden list: hidden, yet ordinary programs still start.
    expect(output(await runIn(box, policy, ['ls', '-A', '/etc']))).toBe('');
  });

  it('keeps the workspace usable when a forbidden path contains it, and hides what lies inside it', async () => {
    const privateDir = join(t.ws, 'private');
    mkdirSync(privateDir, { recursive: true });
    writeFileSync(join(privateDir, 'note'), 'private-value\n');
    const nested = policyFor(t, { forbiddenPaths: [t.base, privateDir] });
    const r = await runIn(box, nested, ['sh', '-c', 'ls -A .. && pwd && cat inside.txt']);
    expect(output(r)).toBe(`ws\n${t.ws}\nwritten\n`);
    expect(output(await runIn(box, nested, ['ls', '-A', privateDir]))).toBe('');
    // A hidden directory is an empty scratch tmpfs: what is written there never reaches the host.
    await runIn(box, nested, writeTo(join(privateDir, 'x')));
    expect(existsSync(join(privateDir, 'x'))).toBe(false);
    expect(output(await runIn(box, nested, ['ls', '-A', t.outside]))).toContain('No such file');
  });

  it('has no network unless sandbox_allow lists "network"', async () => {
    const r = await runIn(box, policy, connectToRedis);
    expect(exitCode(r)).not.toBe(0);
    const networked = policyFor(t, { sandbox: { ...policy.sandbox, allowNetwork: true } });
    expect(exitCode(await runIn(box, networked, connectToRedis))).toBe(0);
  });

  it("cannot read another process's environment: its own PID namespace", async () => {
    const canary = startCanaryProcess('canary-on-5b2e');
    try {
      const pid = await canary.pid;
      const r = await runIn(box, policy, ['cat', `/proc/${pid}/environ`, `/proc/${process.pid}/environ`]);
      expect(exitCode(r)).not.toBe(0);
      expect(output(r)).not.toContain('canary-on-5b2e');
      expect(output(r)).not.toContain('PATH=');
      // Only the sandbox's own processes are listed: the command is a low pid in its namespace.
      const ps = await runIn(box, policy, ['sh', '-c', 'echo $$']);
      expect(Number(output(ps))).toBeLessThan(10);
    } finally {
      canary.stop();
    }
  });

  it('has its own /tmp', async () => {
    const marker = `/tmp/baton-sandbox-marker-${process.pid}`;
    expect(exitCode(await runIn(box, policy, writeTo(marker)))).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('passes only the environment the policy passes', async () => {
    process.env.BATON_SANDBOX_PASSED = 'passed-value';
    process.env.BATON_SANDBOX_HIDDEN = 'hidden-value';
    try {
      const p = policyFor(t, { shellEnvPassthrough: ['BATON_SANDBOX_PASSED'] });
      const names = output(await runIn(box, p, ['printenv']))
        .trim()
        .split('\n')
        .map((l) => l.slice(0, l.indexOf('=')))
        .sort();
      const expected = ['BATON_SANDBOX_PASSED', 'HOME', 'LANG', 'PATH'].filter(
        (n) => process.env[n] !== undefined,
      );
      expect(names).toEqual(expected);
    } finally {
      delete process.env.BATON_SANDBOX_PASSED;
      delete process.env.BATON_SANDBOX_HIDDEN;
    }
  });
});
