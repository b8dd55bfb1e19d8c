// Starts cron-process.ts as a separate Node process, waits for its "ready" line, and stops it with SIGTERM.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

export interface CronProcess {
  readonly pid: number;
  stop(): Promise<void>;
}

const SCRIPT = join(import.meta.dirname, 'cron-process.ts');

function waitForLine(
  child: ChildProcess,
  word: string,
  timeoutMs: number,
  stderr: () => string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`cron process: no "${word}" within ${timeoutMs} ms\n${stderr()}`)),
      timeoutMs,
    );
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.split('\n').some((l) => l.startsWith(word))) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`cron process exited (${code}) before "${word}"\n${stderr()}`));
    });
  });
}

export async function startCronProcess(env: Record<string, string>): Promise<CronProcess> {
  const child = spawn(process.execPath, [SCRIPT], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d) => {
    err += d;
  });
  await waitForLine(child, 'ready', 20_000, () => err);
  return {
    pid: child.pid ?? -1,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const code = await exited;
      if (code !== 0) throw new Error(`cron process exited ${code}\n${err}`);
    },
  };
}
