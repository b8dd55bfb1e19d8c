// CPU per turn, repeatable on a loaded machine: the in-process bench path (local channel, instant model) and raw
// BullMQ against a private redis-server, reporting this process's CPU per turn, redis-server's CPU per turn and
// Redis commands per turn (INFO commandstats, and those this process sends). `node test/bench/turn-cost.ts [turns] [rounds]`.
// TURN_COST_SOCKETS=1 also times this process's socket writes; TURN_COST_MONITOR=<file> writes a MONITOR of five
// sequential turns (TURN_COST_FULL=1: arguments untruncated; TURN_COST_MONITOR_BURST=<n>: a burst of n turns) and stops; TURN_COST_PROFILE=burst|sequential|raw
// profiles that phase alone into TURN_COST_OUT (a .cpuprofile; TURN_COST_HEAP=1: an allocation sampling profile).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { freePort } from '../helpers/free-port.ts';
import { startBenchRuntime } from './bench-runtime.ts';
import { measureRawBullmq } from './raw-bullmq.ts';
import { round } from './stats.ts';

const turns = Number(process.argv[2] ?? 3000);
const rounds = Number(process.argv[3] ?? 3);
const port = await freePort();
const server = spawn(
  'redis-server',
  ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
  {
    stdio: 'ignore',
  },
);
const url = `redis://127.0.0.1:${port}`;
const admin = new Redis(url, { maxRetriesPerRequest: null, retryStrategy: () => 50 });
admin.on('error', () => {});
for (let i = 0; i < 100; i++) {
  try {
    await admin.ping();
    break;
  } catch {
    await sleep(50);
  }
}

async function redisState() {
  const cpu = await admin.info('cpu');
  const user = Number(/used_cpu_user:([\d.]+)/.exec(cpu)?.[1]);
  const sys = Number(/used_cpu_sys:([\d.]+)/.exec(cpu)?.[1]);
  const stats = await admin.info('commandstats');
  let calls = 0;
  const byCmd = new Map<string, number>();
  for (const m of stats.matchAll(/cmdstat_([^:]+):calls=(\d+)/g)) {
    calls += Number(m[2]);
    byCmd.set(m[1] ?? '', Number(m[2]));
  }
  const net = await admin.info('stats');
  const inBytes = Number(/total_net_input_bytes:(\d+)/.exec(net)?.[1]);
  const outBytes = Number(/total_net_output_bytes:(\d+)/.exec(net)?.[1]);
  return { cpuMs: (user + sys) * 1000, calls, byCmd, inBytes, outBytes };
}

/** CPU ms by thread name (/proc/self/task): the main thread apart from V8's GC helpers and libuv's pool. */
function threadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(name, (out.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) * 10);
    } catch {}
  }
  return out;
}

/** read- and write-like syscalls of this process so far (/proc/self/io). */
function syscalls() {
  const io = readFileSync('/proc/self/io', 'utf8');
  return { r: Number(/syscr: (\d+)/.exec(io)?.[1]), w: Number(/syscw: (\d+)/.exec(io)?.[1]) };
}

// Socket writes of this process: calls, bytes and the time spent inside write() (libuv tries the syscall there).
const sockets = { calls: 0, bytes: 0, ms: 0, strings: 0 };
if (process.env.TURN_COST_SOCKETS) {
  const { Socket } = await import('node:net');
  const write = Socket.prototype.write;
  Socket.prototype.write = function (this: unknown, ...args: unknown[]) {
    const d = args[0];
    sockets.calls++;
    if (typeof d === 'string') sockets.strings++;
    sockets.bytes += typeof d === 'string' ? d.length : (d as Buffer).length;
    const t0 = performance.now();
    const r = (write as (...a: unknown[]) => boolean).apply(this, args);
    sockets.ms += performance.now() - t0;
    return r;
  } as typeof write;
}

// Commands this process sends (each once, however often ioredis hands it on): the round-trip work of the client,
// apart from the commands scripts run inside Redis (which INFO commandstats counts too).
const client = { commands: 0 };
{
  const seen = new WeakSet<object>();
  const send = Redis.prototype.sendCommand;
  Redis.prototype.sendCommand = function (this: Redis, command: object, ...rest: unknown[]) {
    if (!seen.has(command)) {
      seen.add(command);
      client.commands++;
    }
    return (send as (...a: unknown[]) => unknown).call(this, command, ...rest);
  } as typeof send;
}

async function measure(n: number, run: () => Promise<void>) {
  const r0 = await redisState();
  const s0 = { ...sockets };
  const k0 = client.commands;
  const io0 = syscalls();
  const th0 = threadCpu();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await run();
  const wall = performance.now() - t0;
  const clientCommands = (client.commands - k0) / n;
  const c1 = process.cpuUsage(c0);
  const r1 = await redisState();
  const th1 = threadCpu();
  const io1 = syscalls();
  const threads = [...th1].map(([k, v]) => `${k} ${round((1000 * (v - (th0.get(k) ?? 0))) / n)}`).join(', ');
  return {
    threads,
    netIn: (r1.inBytes - r0.inBytes) / n,
    netOut: (r1.outBytes - r0.outBytes) / n,
    byCmd: [...r1.byCmd]
      .map(([k, v]) => [k, (v - (r0.byCmd.get(k) ?? 0)) / n] as const)
      .filter(([, v]) => v > 0.05)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${round(v)}`)
      .join(', '),
    sockets: `socket writes/turn ${round((sockets.calls - s0.calls) / n)} (strings ${round((sockets.strings - s0.strings) / n)}), ${round((sockets.bytes - s0.bytes) / n)} B, ${round((1000 * (sockets.ms - s0.ms)) / n)} µs in write()`,
    reads: (io1.r - io0.r) / n,
    writes: (io1.w - io0.w) / n,
    nodeMs: (c1.user + c1.system) / 1000 / n,
    redisMs: (r1.cpuMs - r0.cpuMs) / n,
    cmds: (r1.calls - r0.calls - 4) / n,
    clientCommands,
    perSec: n / (wall / 1000),
  };
}

const show = (name: string, f: Awaited<ReturnType<typeof measure>>) =>
  process.stdout.write(
    `${name}: node ${round(f.nodeMs * 1000)} µs/turn, redis ${round(f.redisMs * 1000)} µs/turn, ${round(f.cmds)} cmds/turn (${round(f.clientCommands)} from the client), ${round(f.perSec)}/s, syscalls/turn read ${round(f.reads)} write ${round(f.writes)}\n    threads µs/turn: ${f.threads}\n    bytes/turn to redis ${round(f.netIn)} from redis ${round(f.netOut)}\n    ${f.byCmd}\n    ${f.sockets}\n`,
  );

const baton = await startBenchRuntime(url, { name: 'cost', concurrency: 16 });
const { local } = baton;
const burst = async (tag: string, count: number) => {
  const before = local.replies.length;
  const sends: Promise<unknown>[] = [];
  for (let i = 0; i < count; i++) sends.push(local.inject({ chat: `${tag}-${i % 300}`, text: `t${i}` }));
  await Promise.all(sends);
  await local.waitForReplies(before + count, { timeoutMs: 120_000 });
};
const sequential = async (tag: string, count: number) => {
  for (let i = 0; i < count; i++) {
    await local.inject({ chat: tag, text: `s${i}` });
    await local.waitForReplies(i + 1, { chat: tag });
  }
};
await sequential('warm', 50);
await burst('warm', 1000);
if (process.env.TURN_COST_MONITOR) {
  // MONITOR over a few sequential turns: every command with its client, scripts' own commands included.
  const { writeFileSync } = await import('node:fs');
  const mon = await new Redis(url).monitor();
  const lines: string[] = [];
  mon.on('monitor', (time: string, args: string[], source: string, db: string) =>
    lines.push(
      `${time} ${source} ${db} ${args.map((a) => (process.env.TURN_COST_FULL ? a : a.slice(0, 60))).join(' ')}`,
    ),
  );
  // TURN_COST_MONITOR_BURST=<n>: a burst of n turns over 300 conversations instead
  const burstTurns = Number(process.env.TURN_COST_MONITOR_BURST ?? 0);
  if (burstTurns > 0) await burst('mon', burstTurns);
  else await sequential('mon', 5);
  await sleep(100);
  writeFileSync(process.env.TURN_COST_MONITOR, lines.join('\n'));
  mon.disconnect();
  await stop();
}
const profile = process.env.TURN_COST_PROFILE; // 'burst' or 'sequential': a CPU profile of that phase
if (profile) {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  const heap = process.env.TURN_COST_HEAP === '1'; // allocation sampling instead of CPU
  if (heap) {
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  } else {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
  }
  const f = await measure(turns, async () => {
    if (profile === 'raw')
      await measureRawBullmq(url, { latencyJobs: 0, throughputJobs: turns, concurrency: 16 });
    else await (profile === 'burst' ? burst('p', turns) : sequential('p', turns));
  });
  const { profile: out } = heap
    ? await session.post('HeapProfiler.stopSampling')
    : await session.post('Profiler.stop');
  if (profile !== 'none') writeFileSync(process.env.TURN_COST_OUT ?? 'turn.cpuprofile', JSON.stringify(out));
  show(`profiled ${profile}`, f);
  await stop();
}
for (let r = 0; r < rounds; r++) {
  show(
    'raw BullMQ job',
    await measure(turns, async () => {
      await measureRawBullmq(url, { latencyJobs: 0, throughputJobs: turns, concurrency: 16 });
    }),
  );
  show('baton burst turn', await measure(turns, () => burst(`b${r}`, turns)));
  show('baton sequential turn', await measure(300, () => sequential(`s${r}`, 300)));
}
await stop();

async function stop() {
  await baton.close();
  admin.disconnect();
  const exited = new Promise((r) => server.once('exit', r));
  server.kill('SIGKILL');
  await exited;
  process.exit(0);
}
