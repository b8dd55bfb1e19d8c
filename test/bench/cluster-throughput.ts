// Throughput on a 3-master Redis Cluster against one Redis, in the same run (issue 19): each Redis a fresh
// redis-server started here (so its CPU is baton's alone), the gateway in this process, 3 `baton worker`
// processes, a model answering after `modelMs`. Three lanes: one Redis with 1 partition (the default), one
// Redis with the Cluster's 16 partitions (what partitioning alone costs), the Cluster. Per Redis node: CPU
// seconds (INFO cpu used_cpu_sys + user) spent during the measured burst, and the clients connected at its
// end. Rounds alternate the lanes so drift on a shared machine hits each.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RedisTarget } from '../../src/core/redis-target.ts';
import { freePort } from '../helpers/free-port.ts';
import { redisTargetToml } from '../helpers/redis.ts';
import { startRedisCluster } from '../helpers/redis-cluster.ts';
import { askPort, cpuSecondsOf, startRedisServer } from '../helpers/redis-server-process.ts';
import { LOCAL_PEERS } from '../helpers/runtime-harness.ts';
import { fakeModelAgentToml } from '../helpers/test-config.ts';
import { startWorkerFleet } from './worker-fleet.ts';

export interface ThroughputOptions {
  workers: number;
  /** Turns per measured burst, each in its own conversation (spread over every partition). */
  turns: number;
  warmupTurns: number;
  /** Per worker process. */
  concurrency: number;
  modelMs: number;
  rounds: number;
}

interface RedisUnderTest {
  target: RedisTarget;
  /** `[redis] partitions` for the lane (undefined: the default of the form). */
  partitions?: number;
  /** CPU seconds per node port so far. */
  cpuSeconds(): Promise<Map<number, number>>;
  /** Clients connected to all nodes now. */
  clients(): Promise<number>;
  close(): Promise<void>;
}

export interface LaneFigures {
  turnsPerSec: number;
  /** Per node: CPU seconds during the burst / wall seconds, in % of one core. */
  nodeCpuPct: number[];
  /** All nodes' CPU per turn. */
  redisCpuMsPerTurn: number;
  /** Clients connected to all nodes at the end of the burst (gateway, 3 workers, the bench's probe). */
  clients: number;
}

export interface ClusterThroughput {
  options: ThroughputOptions;
  single: LaneFigures[];
  /** One Redis with the Cluster's partition count. */
  singlePartitioned: LaneFigures[];
  cluster: LaneFigures[];
}

async function clientsOf(ports: number[]): Promise<number> {
  let n = 0;
  for (const port of ports) {
    const info = String(await askPort(port, 'INFO', 'clients'));
    n += Number(/connected_clients:(\d+)/.exec(info)?.[1] ?? 0) - 1; // not the asking connection
  }
  return n;
}

async function startSingleRedis(): Promise<RedisUnderTest> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'baton-bench-redis-'));
  const server = await startRedisServer(port, [
    ...['--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
  ]);
  for (let i = 0; i < 100 && (await askPort(port)) !== 'PONG'; i++)
    await new Promise((r) => setTimeout(r, 50));
  return {
    target: { url: `redis://127.0.0.1:${port}` },
    cpuSeconds: () => cpuSecondsOf([port]),
    clients: () => clientsOf([port]),
    async close() {
      await server.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function measureLane(r: RedisUnderTest, o: ThroughputOptions): Promise<LaneFigures> {
  const fleet = await startWorkerFleet({
    name: 'cluster',
    workers: o.workers,
    modelMs: o.modelMs,
    configText: (prefix, dataDir, model) =>
      `[redis]\n${redisTargetToml(r.target)}\nprefix = "${prefix}"\n${r.partitions ? `partitions = ${r.partitions}` : ''}\n\n[gateway]\ndata_dir = "${dataDir}"\n\n${fakeModelAgentToml(model)}\n[worker]\nconcurrency = ${o.concurrency}\n${LOCAL_PEERS}`,
  });
  try {
    await fleet.burst('warm', o.warmupTurns, 300_000).catch((err: unknown) => {
      // Say what the workers said: a stuck lane is otherwise silent.
      for (const p of fleet.procs) process.stderr.write(`${p.output().slice(-3000)}\n`);
      throw err;
    });
    const cpu0 = await r.cpuSeconds();
    const secs = await fleet.burst('s', o.turns, 300_000);
    const cpu1 = await r.cpuSeconds();
    const clients = await r.clients();
    const used = [...cpu1].map(([port, s]) => s - (cpu0.get(port) ?? s));
    return {
      turnsPerSec: o.turns / secs,
      nodeCpuPct: used.map((s) => (100 * s) / secs),
      redisCpuMsPerTurn: (1000 * used.reduce((a, b) => a + b, 0)) / o.turns,
      clients,
    };
  } finally {
    await fleet.close();
  }
}

export const DEFAULT_CLUSTER_BENCH: ThroughputOptions = {
  workers: 3,
  turns: 1500,
  warmupTurns: 300,
  concurrency: 16,
  modelMs: 5,
  rounds: 3,
};

export async function measureClusterThroughput(
  o: ThroughputOptions = DEFAULT_CLUSTER_BENCH,
  say: (line: string) => void = (line) => process.stdout.write(line),
): Promise<ClusterThroughput> {
  const single = await startSingleRedis();
  const cluster = await startRedisCluster();
  const clusterLane: RedisUnderTest = {
    target: cluster.target,
    cpuSeconds: () => cluster.cpuSeconds(),
    clients: () => clientsOf(cluster.masterPorts),
    close: () => cluster.close(),
  };
  const lanes = [
    ['one Redis', single, 'single'],
    ['one Redis, 16 partitions', { ...single, partitions: 16 }, 'singlePartitioned'],
    ['Cluster', clusterLane, 'cluster'],
  ] as const;
  const out: ClusterThroughput = { options: o, single: [], singlePartitioned: [], cluster: [] };
  try {
    for (let i = 0; i < o.rounds; i++) {
      for (const [name, lane, key] of lanes) {
        const f = await measureLane(lane, o);
        out[key].push(f);
        say(`  round ${i + 1}: ${name} ${Math.round(f.turnsPerSec)} turns/s\n`);
      }
    }
  } finally {
    await single.close();
    await cluster.close();
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

/** The median of the rounds, per figure. */
export function laneMedian(runs: LaneFigures[]): LaneFigures {
  const nodes = runs[0]?.nodeCpuPct.length ?? 0;
  return {
    turnsPerSec: median(runs.map((r) => r.turnsPerSec)),
    nodeCpuPct: Array.from({ length: nodes }, (_, i) => median(runs.map((r) => r.nodeCpuPct[i] ?? 0))),
    redisCpuMsPerTurn: median(runs.map((r) => r.redisCpuMsPerTurn)),
    clients: median(runs.map((r) => r.clients)),
  };
}
