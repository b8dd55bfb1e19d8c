// Shared by the sandbox tests: a directory tree outside /tmp (the sandbox has its own /tmp) and a runner.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ShellSandbox } from '../../../src/security/sandbox/shell-sandbox.ts';
import type { SandboxSettings, SecurityPolicy } from '../../../src/security/types.ts';
import { type RunOutcome, runArgv } from '../../../src/tools/builtin/shell-runner.ts';
import { buildPolicy } from '../../helpers/policy.ts';

export interface SandboxTree {
  base: string;
  ws: string;
  outside: string;
  secretDir: string;
  secretFile: string;
  remove(): void;
}

/** Under /var/tmp, not /tmp: the sandbox's own /tmp would hide the paths outside the workspace by itself. */
export function makeTree(): SandboxTree {
  const base = mkdtempSync('/var/tmp/baton-sandbox-');
  const t = {
    base,
    ws: join(base, 'ws'),
    outside: join(base, 'outside'),
    secretDir: join(base, 'secret-dir'),
    secretFile: join(base, 'secret.txt'),
    remove: () => rmSync(base, { recursive: true, force: true }),
  };
  for (const d of [t.ws, t.outside, t.secretDir]) mkdirSync(d, { recursive: true });
  writeFileSync(join(t.secretDir, 'key'), 'dir-secret-value\n');
  writeFileSync(t.secretFile, 'file-secret-value\n');
  return t;
}

export const REQUIRED: SandboxSettings = { enabled: true, backend: 'bubblewrap', allowNetwork: false };
export const OFF: SandboxSettings = { enabled: false, backend: 'auto', allowNetwork: false };

export function policyFor(t: SandboxTree, over: Partial<SecurityPolicy> = {}): SecurityPolicy {
  return buildPolicy({
    workspaceDir: t.ws,
    forbiddenPaths: ['/etc', '~/.ssh', t.secretDir, t.secretFile],
    sandbox: REQUIRED,
    ...over,
  });
}

/** Prepares `argv` through the sandbox as the shell tool does, then runs it with the tool's runner. */
export async function runIn(
  box: ShellSandbox,
  policy: SecurityPolicy,
  argv: string[],
  opts: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<RunOutcome> {
  const prepared = await box.prepare(policy, argv);
  if (!prepared.ok) throw new Error(prepared.error);
  return runArgv(prepared.argv, {
    cwd: policy.workspaceDir,
    timeoutMs: opts.timeoutMs ?? 30_000,
    passthrough: policy.shellEnvPassthrough,
    signal: opts.signal ?? new AbortController().signal,
  });
}

export const exitCode = (r: RunOutcome) => (r.kind === 'exited' ? r.code : r.kind);
export const output = (r: RunOutcome) => (r.kind === 'spawn_failed' ? r.reason : r.stdout + r.stderr);

/** Host pids whose command line contains `marker` (zombies have an empty one, so they do not count). */
export function pidsWith(marker: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(marker)) out.push(Number(name));
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}
