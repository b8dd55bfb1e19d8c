// Runs one argument vector without a shell: minimal environment, output caps, timeout and abort kill the group.
import { spawn } from 'node:child_process';

export const OUTPUT_CAP_BYTES = 64 * 1024;
const BASE_ENV = ['PATH', 'HOME', 'LANG'] as const;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export type RunOutcome =
  | { kind: 'exited'; code: number; stdout: string; stderr: string }
  | { kind: 'signalled'; signal: string; stdout: string; stderr: string }
  | { kind: 'timed_out'; stdout: string; stderr: string }
  | { kind: 'aborted'; stdout: string; stderr: string }
  | { kind: 'spawn_failed'; reason: string };

export interface RunOptions {
  cwd: string;
  timeoutMs: number;
  passthrough: readonly string[];
  signal: AbortSignal;
  source?: NodeJS.ProcessEnv;
  /** Set for every command, over the passed variables. */
  fixedEnv?: Readonly<Record<string, string>>;
}

/** Only PATH, HOME, LANG and the profile's `shell_env_passthrough` variables reach the command. */
export function buildCommandEnv(
  passthrough: readonly string[],
  source: NodeJS.ProcessEnv,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...BASE_ENV, ...passthrough]) {
    const value = source[name];
    if (ENV_NAME.test(name) && value !== undefined) env[name] = value;
  }
  return env;
}

/** Collects a stream up to the cap, remembering whether anything was dropped. */
function capture() {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  return {
    push(chunk: Buffer) {
      if (size >= OUTPUT_CAP_BYTES) {
        truncated = true;
        return;
      }
      const room = OUTPUT_CAP_BYTES - size;
      if (chunk.length > room) truncated = true;
      const part = chunk.subarray(0, room);
      chunks.push(part);
      size += part.length;
    },
    text: () => Buffer.concat(chunks).toString('utf8') + (truncated ? '\n[output truncated]' : ''),
  };
}

export function runArgv(argv: readonly string[], opts: RunOptions): Promise<RunOutcome> {
  const [program, ...args] = argv;
  return new Promise((resolvePromise) => {
    if (program === undefined) return resolvePromise({ kind: 'spawn_failed', reason: 'empty command' });
    if (opts.signal.aborted) return resolvePromise({ kind: 'aborted', stdout: '', stderr: '' });
    const out = capture();
    const err = capture();
    let ending: 'timed_out' | 'aborted' | null = null;
    // detached: the command leads its own process group, so a timeout kills everything it started.
    const child = spawn(program, args, {
      cwd: opts.cwd,
      env: { ...buildCommandEnv(opts.passthrough, opts.source ?? process.env), ...opts.fixedEnv },
      shell: false,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const stop = (why: 'timed_out' | 'aborted') => {
      ending ??= why;
      killGroup();
    };
    const timer = setTimeout(() => stop('timed_out'), opts.timeoutMs);
    const onAbort = () => stop('aborted');
    opts.signal.addEventListener('abort', onAbort, { once: true });
    const cleanup = () => {
      clearTimeout(timer);
      opts.signal.removeEventListener('abort', onAbort);
    };
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (e) => {
      cleanup();
      resolvePromise({ kind: 'spawn_failed', reason: e.message });
    });
    child.on('close', (code, signal) => {
      cleanup();
      const streams = { stdout: out.text(), stderr: err.text() };
      if (ending) resolvePromise({ kind: ending, ...streams });
      else if (code !== null) resolvePromise({ kind: 'exited', code, ...streams });
      else resolvePromise({ kind: 'signalled', signal: signal ?? 'unknown', ...streams });
    });
  });
}

/** stdout, then a STDERR section when the command wrote to stderr. */
export function formatOutput(stdout: string, stderr: string): string {
  if (stderr === '') return stdout;
  const head = stdout === '' ? '' : stdout.endsWith('\n') ? stdout : `${stdout}\n`;
  return `${head}STDERR:\n${stderr}`;
}
