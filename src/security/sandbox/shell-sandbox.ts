// How a profile's shell commands run: sandboxed, unsandboxed (auto, backend unusable), off, or refused (required).

import { absolutePath } from '../paths.ts';
import { sandbox as text } from '../security-messages.ts';
import type { SandboxSettings, SecurityPolicy } from '../types.ts';
import { bwrapArgs } from './bwrap-args.ts';
import { DEFAULT_BWRAP, probeSandbox, type SandboxProbe } from './probe.ts';

/**
 * `sandboxed`: through bwrap. `unsandboxed`: auto mode on a host where bwrap cannot run. `off`: the profile
 * turns it off. `refused`: the profile requires it and it cannot run, so no command runs.
 */
export type ShellMode = 'sandboxed' | 'unsandboxed' | 'off' | 'refused';

export type ShellDecision = { mode: ShellMode; reason?: string };

export function decideShellMode(settings: SandboxSettings, probe: SandboxProbe): ShellDecision {
  if (settings.enabled === true) {
    // Required but told to use no backend: fail closed rather than guess which of the two was meant.
    if (settings.backend === 'none') return { mode: 'refused', reason: text.backendNone() };
    return probe.ok ? { mode: 'sandboxed' } : { mode: 'refused', reason: probe.reason };
  }
  if (settings.enabled === false || settings.backend === 'none') return { mode: 'off' };
  return probe.ok ? { mode: 'sandboxed' } : { mode: 'unsandboxed', reason: probe.reason };
}

export type PreparedCommand = { ok: true; argv: string[]; mode: ShellMode } | { ok: false; error: string };

export interface ShellSandbox {
  /** The bwrap binary (name on PATH or absolute path). */
  readonly binary: string;
  probe(): Promise<SandboxProbe>;
  decide(settings: SandboxSettings): Promise<ShellDecision>;
  /** The argv to spawn for `argv` under `policy`, or the `sandbox unavailable: <reason>` refusal. */
  prepare(policy: SecurityPolicy, argv: readonly string[]): Promise<PreparedCommand>;
}

export interface ShellSandboxOptions {
  /** Tests point this at a missing file to see the unavailable path on a host where bwrap works. */
  binary?: string;
}

export function createShellSandbox(opts: ShellSandboxOptions = {}): ShellSandbox {
  const binary = opts.binary ?? DEFAULT_BWRAP;
  const box: ShellSandbox = {
    binary,
    probe: () => probeSandbox(binary),
    async decide(settings) {
      return decideShellMode(settings, await box.probe());
    },
    async prepare(policy, argv) {
      const decision = await box.decide(policy.sandbox);
      if (decision.mode === 'refused') return { ok: false, error: text.unavailable(decision.reason ?? '') };
      if (decision.mode !== 'sandboxed') return { ok: true, argv: [...argv], mode: decision.mode };
      const wrapped = bwrapArgs(
        {
          workspaceDir: policy.workspaceDir,
          writableRoots: [...policy.allowedRoots, ...policy.allowedRootsWriteOnly],
          readOnlyRoots: policy.allowedRootsReadOnly,
          forbiddenPaths: policy.forbiddenPaths.map((p) => absolutePath(p, policy.workspaceDir)),
          readOnly: policy.autonomy === 'readonly',
          allowNetwork: policy.sandbox.allowNetwork,
        },
        argv,
      );
      return { ok: true, argv: [binary, ...wrapped], mode: 'sandboxed' };
    },
  };
  return box;
}

let processDefault: ShellSandbox | undefined;

/** The process's sandbox when the runtime services carry none (tool tests, one-shot CLI runs). */
export function defaultShellSandbox(): ShellSandbox {
  processDefault ??= createShellSandbox();
  return processDefault;
}
