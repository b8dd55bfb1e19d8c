// `baton start` as users run it: its own process, the default log level (stdout drained, as a terminal or a log
// file would take it), a config written to a temp dir; with the process's resident memory and its heap.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI } from '../helpers/cli.ts';
import { freePort } from '../helpers/free-port.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../helpers/redis.ts';

export interface BatonChild {
  child: ChildProcess;
  prefix: string;
  /** The ops API's base URL (`/metrics` carries the process's heap). */
  opsUrl: string;
  /** Resident memory of the baton process, MB (Linux `/proc`). */
  rssMb(): number;
  /** CPU time (user + system) the baton process has used, ms (Linux `/proc`, 10 ms ticks). */
  cpuMs(): number;
  /** V8 heap used, MB, as the process reports it on `/metrics`. */
  heapUsedMb(): Promise<number>;
  /** Bytes the process wrote to stdout and stderr (its log lines). */
  logBytes(): number;
  close(): Promise<void>;
}

/**
 * Starts `baton start` with `body` (everything after `[redis]` and `[gateway]`); resolves once it printed that it
 * runs. `nodeArgs` go before the CLI (e.g. `--cpu-prof`); `env` is added to this process's, minus BATON_LOG_LEVEL.
 */
export async function startBatonChild(
  url: string,
  name: string,
  body: string,
  opts: { nodeArgs?: string[]; env?: Record<string, string> } = {},
): Promise<BatonChild> {
  const prefix = uniquePrefix(`bench-${name}`);
  const dir = mkdtempSync(join(tmpdir(), `baton-bench-${name}-`));
  const port = await freePort();
  const path = join(dir, 'baton.toml');
  writeFileSync(
    path,
    `[redis]
url = "${url}"
prefix = "${prefix}"

[gateway]
host = "127.0.0.1"
port = ${port}
data_dir = "${join(dir, 'data')}"
${body}`,
  );
  const env: Record<string, string | undefined> = { ...process.env, ...opts.env };
  delete env.BATON_LOG_LEVEL; // the default level, as users run it
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), CLI, 'start', '--config', path], {
    env,
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let head = '';
  let bytes = 0;
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`baton start did not run within 30 s:\n${head}`)),
      30_000,
    );
    const take = (d: Buffer) => {
      bytes += d.length;
      if (head.length < 64_000) head += d;
      if (/baton gateway \+ worker running/.test(head)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`baton start exited ${code}:\n${head}`));
    });
  });
  await ready;
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const opsUrl = `http://127.0.0.1:${port}`;
  return {
    child,
    prefix,
    opsUrl,
    rssMb: () => rssMbOf(child.pid ?? 0),
    cpuMs: () => cpuMsOf(child.pid ?? 0),
    async heapUsedMb() {
      const text = await (await fetch(`${opsUrl}/metrics`)).text();
      const m = /^baton_process_heap_used_bytes (\d+)/m.exec(text);
      return m ? Number(m[1]) / 2 ** 20 : Number.NaN;
    },
    logBytes: () => bytes,
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      const redis = testRedis(url);
      await deletePrefix(redis, prefix);
      await redis.quit();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function rssMbOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

/** utime + stime of `pid` in ms (fields 14 and 15 of /proc/<pid>/stat, in clock ticks of 10 ms). */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
