// The sandbox's lifecycle: timeout and abort kill bwrap and everything in it; a required sandbox that cannot run
// refuses with the exact text and runs nothing (simulated with a bwrap path that does not exist).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../../src/security/sandbox/probe.ts';
import { createShellSandbox, decideShellMode } from '../../../src/security/sandbox/shell-sandbox.ts';
import { createShellTool } from '../../../src/tools/builtin/shell.ts';
import { buildRunContext, createFakeGate, createMemoryBuckets } from '../../helpers/run-context.ts';
import { configFromToml, tomlKeys } from '../../helpers/test-config.ts';
import { makeTree, OFF, pidsWith, policyFor, REQUIRED, runIn } from './sandbox-fixture.ts';

const probe = await probeSandbox();
const skipReason = probe.ok ? '' : ` (skipped: ${probe.reason})`;
const box = createShellSandbox();
const MISSING = '/nonexistent/baton-test/bwrap';
const missing = createShellSandbox({ binary: MISSING });
const t = makeTree();
afterAll(() => t.remove());

/** Resolves once a process whose command line holds `marker` exists (the command really started). */
async function started(marker: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (pidsWith(marker).length === 0) {
    if (Date.now() > deadline) throw new Error(`no process with ${marker} appeared`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(!probe.ok)(`timeout and abort inside the sandbox${skipReason}`, () => {
  const policy = policyFor(t);

  it('a timeout kills bwrap and everything inside it, even a process that left the process group', async () => {
    const [marker, escaped] = ['3031.25', '3033.25'];
    const script = `setsid sleep ${escaped} & sleep ${marker}; echo late`;
    const r = await runIn(box, policy, ['sh', '-c', script], { timeoutMs: 1000 });
    expect(r.kind).toBe('timed_out');
    // 'close' fires when every holder of the output pipes is gone, so the sleeps have exited by now: the
    // group kill took the sandbox's PID 1, and the kernel ends the rest of its PID namespace with it.
    expect(pidsWith(marker)).toEqual([]);
    expect(pidsWith(escaped)).toEqual([]);
  });

  // Aborting as soon as bwrap exists, often before it has set the sandbox up, is where a kill can miss.
  it.each([1, 2, 3, 4, 5])('an abort kills bwrap and the sleep inside it (%i)', async (n) => {
    const marker = `3032.${n}5`;
    const abort = new AbortController();
    const pending = runIn(box, policy, ['sleep', marker], { signal: abort.signal });
    await started(marker);
    abort.abort();
    expect((await pending).kind).toBe('aborted');
    expect(pidsWith(marker)).toEqual([]);
  });
});

describe('a backend that cannot run', () => {
  it('probes as unavailable with the reason', async () => {
    expect(await missing.probe()).toEqual({
      ok: false,
      reason: `bubblewrap (${MISSING}) cannot be started: ENOENT`,
    });
  });

  it('required: the exact refusal; auto: unsandboxed; off: off', async () => {
    expect(await missing.prepare(policyFor(t), ['ls'])).toEqual({
      ok: false,
      error: `sandbox unavailable: bubblewrap (${MISSING}) cannot be started: ENOENT`,
    });
    const auto = policyFor(t, { sandbox: { ...REQUIRED, enabled: undefined } });
    expect(await missing.prepare(auto, ['ls'])).toEqual({ ok: true, argv: ['ls'], mode: 'unsandboxed' });
    expect(await missing.prepare(policyFor(t, { sandbox: OFF }), ['ls'])).toEqual({
      ok: true,
      argv: ['ls'],
      mode: 'off',
    });
  });

  it('decides per profile: sandbox_backend = "none" is off, or refused when the sandbox is required', () => {
    const works = { ok: true } as const;
    expect(decideShellMode({ enabled: undefined, backend: 'none', allowNetwork: false }, works)).toEqual({
      mode: 'off',
    });
    expect(decideShellMode({ enabled: true, backend: 'none', allowNetwork: false }, works)).toEqual({
      mode: 'refused',
      reason: 'sandbox_enabled = true but sandbox_backend = "none"',
    });
    expect(decideShellMode({ enabled: undefined, backend: 'auto', allowNetwork: false }, works)).toEqual({
      mode: 'sandboxed',
    });
  });
});

describe('through the shell tool', () => {
  function toolContext(sandbox_enabled: boolean | undefined, binary?: string) {
    // sandbox_enabled undefined: the key is left out (auto).
    const config = configFromToml(
      `
[risk_profiles.default]
${tomlKeys({ allowed_commands: ['touch', 'sh'], sandbox_enabled, block_high_risk_commands: false })}
[agents.main]
risk_profile = "default"
`,
      { dataDir: t.base },
    );
    const gate = createFakeGate('run');
    const buckets = createMemoryBuckets();
    const sandbox = binary ? createShellSandbox({ binary }) : box;
    const run = buildRunContext({ config, agentAlias: 'main', gate, buckets, services: { sandbox } });
    return { gate, buckets, ws: run.policy.workspaceDir, ctx: { run, toolCallId: 'c1', signal: run.signal } };
  }
  const shell = createShellTool();

  it('sandbox_enabled = true on a host without the backend: the exact error, nothing asked, charged or run', async () => {
    const { ctx, gate, buckets, ws } = toolContext(true, MISSING);
    expect(await shell.execute({ command: 'touch ran.txt' }, ctx)).toEqual({
      success: false,
      output: '',
      error: `sandbox unavailable: bubblewrap (${MISSING}) cannot be started: ENOENT`,
    });
    expect(gate.asks).toEqual([]);
    expect(buckets.recorded.size).toBe(0);
    expect(existsSync(join(ws, 'ran.txt'))).toBe(false);
  });

  it('unset (auto) on a host without the backend: runs unsandboxed', async () => {
    const { ctx, ws } = toolContext(undefined, MISSING);
    expect((await shell.execute({ command: 'touch auto.txt' }, ctx)).success).toBe(true);
    expect(existsSync(join(ws, 'auto.txt'))).toBe(true);
  });

  it.skipIf(!probe.ok)(
    `sandboxed: a write the command policy let through is stopped${skipReason}`,
    async () => {
      const { ctx, ws } = toolContext(undefined);
      const outside = join(t.outside, 'via-tool.txt');
      // The -c script is one argument the command policy cannot read as a path; the sandbox bounds it anyway.
      const r = await shell.execute({ command: `sh -c "touch ${outside} inside.txt"` }, ctx);
      expect(r.success).toBe(false);
      expect(r.output).toContain('No such file or directory');
      expect(existsSync(outside)).toBe(false);
      expect(existsSync(join(ws, 'inside.txt'))).toBe(true);
    },
  );
});
