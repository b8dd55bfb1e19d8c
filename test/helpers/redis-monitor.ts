// MONITOR over a plain socket. ioredis's own `monitor()` connection throws "Command queue state error" as an
// uncaught exception when monitor lines still buffered at `disconnect()` are parsed as replies, which a busy
// Redis (another suite or a bench on it) makes likely. Here `stop()` destroys the socket and drops the rest.
import { connect } from 'node:net';
import type { Redis } from 'ioredis';

export interface MonitoredCommand {
  /** The command and its arguments, unescaped. */
  args: string[];
  /** `lua` for a command a script ran, else the client's `host:port`. */
  source: string;
}

export interface RedisMonitor {
  stop(): void;
}

const ESCAPES: Record<string, string> = {
  n: '\n',
  r: '\r',
  t: '\t',
  a: '\x07',
  b: '\b',
  '"': '"',
  '\\': '\\',
};

function unquote(quoted: string): string {
  return quoted.replace(/\\(x[0-9a-fA-F]{2}|.)/g, (_, e: string) =>
    e.length === 3 ? String.fromCharCode(Number.parseInt(e.slice(1), 16)) : (ESCAPES[e] ?? e),
  );
}

/** Parses one MONITOR line: `<time> [<db> <source>] "<arg>" "<arg>" …`; null for anything else. */
export function parseMonitorLine(line: string): MonitoredCommand | null {
  const m = /^\S+ \[\d+ ([^\]]+)\] (.*)$/.exec(line);
  if (!m) return null;
  const args = [...(m[2] as string).matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((a) => unquote(a[1] as string));
  return { args, source: m[1] as string };
}

/** Starts a MONITOR on `redis`'s server; resolves once Redis confirmed it (every later command is seen). */
export function monitorRedis(redis: Redis, onCommand: (c: MonitoredCommand) => void): Promise<RedisMonitor> {
  const { host, port, password } = redis.options;
  const socket = connect(port ?? 6379, host ?? '127.0.0.1');
  return new Promise((resolve, reject) => {
    let buffered = '';
    let oksDue = password ? 2 : 1; // AUTH's, then MONITOR's
    socket.once('error', reject);
    socket.on('data', (d: Buffer) => {
      buffered += d.toString('latin1');
      let end = buffered.indexOf('\r\n');
      while (end >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        end = buffered.indexOf('\r\n');
        if (line.startsWith('-')) return reject(new Error(`MONITOR refused: ${line.slice(1)}`));
        if (oksDue > 0) {
          if (line === '+OK' && --oksDue === 0) resolve({ stop: () => socket.destroy() });
          continue;
        }
        const command = line.startsWith('+') ? parseMonitorLine(line.slice(1)) : null;
        if (command) onCommand(command);
      }
    });
    socket.write(password ? `AUTH ${password}\r\nMONITOR\r\n` : 'MONITOR\r\n');
  });
}
