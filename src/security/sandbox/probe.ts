// The startup probe: really run `bwrap <the command flags> -- true` once per process and binary, and remember.
import { execFile } from 'node:child_process';
import { sandbox as text } from '../security-messages.ts';
import { baseFlags, SEAL_ROOT } from './bwrap-args.ts';

export type SandboxProbe = { ok: true } | { ok: false; reason: string };

export const DEFAULT_BWRAP = 'bwrap';
const PROBE_TIMEOUT_MS = 10_000;

/** Unprivileged user namespaces, seccomp and container runtimes vary by host: only trying tells. */
function runProbe(binary: string): Promise<SandboxProbe> {
  return new Promise((resolve) => {
    execFile(
      binary,
      [...baseFlags(false), ...SEAL_ROOT, '--', 'true'],
      { timeout: PROBE_TIMEOUT_MS, killSignal: 'SIGKILL', env: { PATH: process.env.PATH ?? '' } },
      (err, _stdout, stderr) => {
        if (!err) return resolve({ ok: true });
        const e = err as NodeJS.ErrnoException & { killed?: boolean; code?: unknown };
        if (typeof e.code === 'string') return resolve({ ok: false, reason: text.notFound(binary, e.code) });
        if (e.killed) return resolve({ ok: false, reason: text.probeTimedOut(binary) });
        const firstLine = String(stderr).trim().split('\n')[0]?.trim();
        const detail = firstLine || `exit code ${String(e.code ?? 'unknown')}`;
        resolve({ ok: false, reason: text.probeFailed(binary, detail) });
      },
    );
  });
}

const probes = new Map<string, Promise<SandboxProbe>>();

/** The cached probe of `binary` (a name on PATH or an absolute path). */
export function probeSandbox(binary: string = DEFAULT_BWRAP): Promise<SandboxProbe> {
  let p = probes.get(binary);
  if (!p) {
    p = runProbe(binary);
    probes.set(binary, p);
  }
  return p;
}
