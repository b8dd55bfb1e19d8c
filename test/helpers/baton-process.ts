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
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, BATON_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
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
          reject(
            new Error(`baton ${args[0]} did not print ${pattern} within ${timeoutMs} ms:\n${out}\n${err}`),
          );
        }, timeoutMs);
        const poll = setInterval(() => {
          if (pattern.test(out)) {
            clearInterval(poll);
            clearTimeout(timer);
            resolve();
          } else if (child.exitCode !== null) {
            clearInterval(poll);
            clearTimeout(timer);
            reject(new Error(`baton ${args[0]} exited ${child.exitCode}:\n${out}\n${err}`));
          }
        }, 20);
      });
    },
  };
}
