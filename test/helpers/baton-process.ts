// A long-running `baton` role as a child process (same Node 24 as the tests), with readiness and kill helpers.
import { type ChildProcess, spawn } from 'node:child_process';
import { CLI } from './cli.ts';

export interface BatonProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves when stdout has printed a line matching `pattern`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  exited: Promise<number | string>;
  kill(signal: NodeJS.Signals): void;
}

export function startBaton(args: string[], env: Record<string, string> = {}): BatonProcess {
  return startProcess(process.execPath, [CLI, ...args], { env, label: `baton ${args[0]}` });
}

export interface StartOptions {
  env?: Record<string, string>;
  cwd?: string;
  /** Own process group (pgid = pid), so a test can signal or sweep everything the command started. */
  detached?: boolean;
  label?: string;
}

/** Any command that ends up running baton (e.g. `npm start`), with the same output and exit helpers. */
export function startProcess(command: string, args: string[], opts: StartOptions = {}): BatonProcess {
  const label = opts.label ?? [command, ...args].join(' ');
  const child = spawn(command, args, {
    env: { ...process.env, BATON_LOG_LEVEL: 'warn', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
    ...(opts.detached ? { detached: true } : {}),
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    err += d;
  });
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  return {
    child,
    output: () => `${out}\n--- stderr ---\n${err}`,
    exited,
    kill: (signal) => child.kill(signal),
    waitFor(pattern, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          clearInterval(poll);
          reject(new Error(`${label} did not print ${pattern} within ${timeoutMs} ms:\n${out}\n${err}`));
        }, timeoutMs);
        const poll = setInterval(() => {
          if (pattern.test(out)) {
            clearInterval(poll);
            clearTimeout(timer);
            resolve();
          } else if (child.exitCode !== null) {
            clearInterval(poll);
            clearTimeout(timer);
            reject(new Error(`${label} exited ${child.exitCode}:\n${out}\n${err}`));
          }
        }, 20);
      });
    },
  };
}
