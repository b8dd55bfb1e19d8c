// The fake model API in a process of its own, answering every request after a fixed delay: a benchmark's
// model is not on baton's event loop, as a real provider is not. Prints `ready <openai base url>`.
import { spawn } from 'node:child_process';
import { startFakeModelServer } from '../fakes/model-server.ts';

export interface ModelProcess {
  openaiBaseUrl: string;
  close(): void;
}

/** Starts this file as a child process; resolves once its server listens. */
export function startModelProcess(delayMs: number): Promise<ModelProcess> {
  const child = spawn(process.execPath, [import.meta.filename, String(delayMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`model process exited ${code}`)));
    child.stdout.on('data', (d) => {
      out += d;
      const url = /^ready (\S+)$/m.exec(out)?.[1];
      if (url) resolve({ openaiBaseUrl: url, close: () => child.kill('SIGTERM') });
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const delayMs = Number(process.argv[2] ?? 0);
  const server = await startFakeModelServer();
  server.respond(() => ({ delayMs, text: 'answer' }));
  process.stdout.write(`ready ${server.openaiBaseUrl}\n`);
  process.on('SIGTERM', () => {
    void server.close().finally(() => process.exit(0));
  });
}
