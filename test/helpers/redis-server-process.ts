// A redis-server process for a test that can never outlive it: started under a small shell watchdog that holds
// the test's end of a pipe, so when the test process dies (a crash, a killed vitest fork, a timeout that skips
// afterAll) the pipe closes and the watchdog SIGKILLs the server. Also: one-shot commands against a port.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { Redis } from 'ioredis';

export interface RedisServerProcess {
  port: number;
  /** The redis-server's own pid (not the watchdog's). */
  pid: number;
  /** SIGKILLs the server (a crash, not a shutdown) and resolves once it is gone. */
  kill(): Promise<void>;
  alive(): boolean;
}

// `read` returns at EOF: the test closed stdin (stop) or died. Either way the server goes with it; so it does
// when the watchdog itself is sent TERM, INT or HUP (a runner stopping the process group).
const WATCHDOG =
  'redis-server "$@" & pid=$!; trap \'kill -9 "$pid" 2>/dev/null; exit 0\' TERM INT HUP; echo "$pid"; ' +
  'read _ignored; kill -9 "$pid" 2>/dev/null; wait';

/** `redis-server [configFile] --port <port> ...args` (a config file must come first, e.g. a sentinel's). */
export async function startRedisServer(
  port: number,
  args: string[],
  configFile?: string,
): Promise<RedisServerProcess> {
  const argv = [...(configFile ? [configFile] : []), '--port', String(port), ...args];
  const sh: ChildProcess = spawn('sh', ['-c', WATCHDOG, 'redis-server', ...argv], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const pid = await new Promise<number>((resolve, reject) => {
    let out = '';
    sh.stdout?.on('data', (d) => {
      out += d;
      const line = /^(\d+)\n/.exec(out);
      if (line?.[1]) resolve(Number(line[1]));
    });
    sh.once('exit', (code) => reject(new Error(`redis-server on port ${port} did not start (exit ${code})`)));
  });
  // Gone, or a zombie nobody has reaped yet (its watchdog died first): either way no longer serving.
  const alive = () => {
    try {
      process.kill(pid, 0);
    } catch {
      return false;
    }
    if (!existsSync('/proc/self/stat')) return true; // no /proc (macOS): a zombie counts as alive there
    try {
      return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');
    } catch {
      return false;
    }
  };
  const shExited = new Promise<void>((r) => sh.once('exit', () => r()));
  return {
    port,
    pid,
    alive,
    async kill() {
      if (alive()) process.kill(pid, 'SIGKILL');
      sh.stdin?.end(); // the watchdog then exits too
      await shExited;
      for (let i = 0; i < 100 && alive(); i++) await new Promise((r) => setTimeout(r, 20));
    },
  };
}

/** Runs one command against a port with a short-lived connection; undefined while it does not answer. */
export async function askPort(port: number, ...args: string[]): Promise<unknown> {
  const r = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 2000,
  });
  r.on('error', () => {});
  try {
    await r.connect();
    return await r.call(args[0] ?? 'PING', ...args.slice(1));
  } catch {
    return undefined;
  } finally {
    r.disconnect();
  }
}

/** used_cpu_sys + used_cpu_user (seconds) per port, from INFO cpu: what each Redis has spent so far. */
export async function cpuSecondsOf(ports: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const port of ports) {
    const info = String(await askPort(port, 'INFO', 'cpu'));
    const v = (k: string) => Number(new RegExp(`${k}:([0-9.]+)`).exec(info)?.[1] ?? 0);
    out.set(port, v('used_cpu_sys') + v('used_cpu_user'));
  }
  return out;
}
