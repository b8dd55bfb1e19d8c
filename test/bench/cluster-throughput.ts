// Throughput on a 3-master Redis Cluster against one Redis, in the same run (issue 19): each Redis a fresh
// redis-server started here (so its CPU is baton's alone), the gateway in this process, 3 `baton worker`
// processes, a model answering after `modelMs`. Per Redis node: CPU seconds (INFO cpu used_cpu_sys + user) spent
// during the measured burst. Rounds alternate one Redis / Cluster so drift on a shared machine hits both.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalChannel } from '../../channels/local/local-adapter.ts';
import { createSilentLogger } from '../../src/core/logger.ts';
import { createRedis } from '../../src/core/redis.ts';
import type { RedisTarget } from '../../src/core/redis-target.ts';
import { startGatewayRole } from '../../src/roles/gateway-role.ts';
import { startFakeModelServer } from '../fakes/model-server.ts';
import { type BatonProcess, startBaton } from '../helpers/baton-process.ts';
import { freePort } from '../helpers/free-port.ts';
import { deletePrefix, redisTargetToml, uniquePrefix } from '../helpers/redis.ts';
import { startRedisCluster } from '../helpers/redis-cluster.ts';
import { askPort, cpuSecondsOf, startRedisServer } from '../helpers/redis-server-process.ts';
import { echoResponder, LOCAL_PEERS } from '../helpers/runtime-harness.ts';
import { configFromToml, fakeModelAgentToml } from '../helpers/test-config.ts';

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
  /** CPU seconds per node port so far. */
  cpuSeconds(): Promise<Map<number, number>>;
  close(): Promise<void>;
}

export interface LaneFigures {
  turnsPerSec: number;
  /** Per node: CPU seconds during the burst / wall seconds, in % of one core. */
  nodeCpuPct: number[];
  /** All nodes' CPU per turn. */
  redisCpuMsPerTurn: number;
}

export interface ClusterThroughput {
  options: ThroughputOptions;
  single: LaneFigures[];
  cluster: LaneFigures[];
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
    async close() {
      await server.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function measureLane(r: RedisUnderTest, o: ThroughputOptions): Promise<LaneFigures> {
  const server = await startFakeModelServer();
  server.respond(echoResponder(() => o.modelMs));
  const prefix = uniquePrefix('bench-cluster');
  const dataDir = mkdtempSync(join(tmpdir(), 'baton-bench-cluster-'));
  const text = `[redis]\n${redisTargetToml(r.target)}\nprefix = "${prefix}"\n\n[gateway]\ndata_dir = "${dataDir}"\n\n${fakeModelAgentToml(server.openaiBaseUrl)}\n[worker]\nconcurrency = ${o.concurrency}\n${LOCAL_PEERS}`;
  const cfgPath = join(dataDir, 'baton.toml');
  writeFileSync(cfgPath, text);
  const config = configFromToml(text);
  const redis = createRedis(config.redis, { autoPipeline: true });
  const local = createLocalChannel('test', 4000);
  const gateway = await startGatewayRole({
    config,
    logger: createSilentLogger(),
    redis,
    adapters: [local],
    routes: { 'local.test': 'main' },
  });
  const procs: BatonProcess[] = [];
  try {
    for (let i = 0; i < o.workers; i++) procs.push(startBaton(['worker', '-c', cfgPath]));
    await Promise.all(procs.map((p) => p.waitFor(/baton worker running/, 60_000)));
    const burst = async (tag: string, n: number) => {
      const before = local.replies.length;
      const t0 = performance.now();
      const sends: Promise<unknown>[] = [];
      for (let i = 0; i < n; i++) sends.push(local.inject({ chat: `${tag}-${i}`, text: `t${i}` }));
      await Promise.all(sends);
      await local.waitForReplies(before + n, { timeoutMs: 300_000 });
      return (performance.now() - t0) / 1000;
    };
    await burst('warm', o.warmupTurns);
    const cpu0 = await r.cpuSeconds();
    const secs = await burst('s', o.turns);
    const cpu1 = await r.cpuSeconds();
    const used = [...cpu1].map(([port, s]) => s - (cpu0.get(port) ?? s));
    return {
      turnsPerSec: o.turns / secs,
      nodeCpuPct: used.map((s) => (100 * s) / secs),
      redisCpuMsPerTurn: (1000 * used.reduce((a, b) => a + b, 0)) / o.turns,
    };
  } finally {
    for (const p of procs) p.kill('SIGTERM');
    await Promise.all(procs.map((p) => p.exited));
    await gateway.close(1000);
    await server.close();
    await deletePrefix(redis, prefix);
    redis.disconnect();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const DEFAULT_CLUSTER_BENCH: ThroughputOptions = {
  workers: 3,
  turns: 1500,
  warmupTurns: 300,
  concurrency: 16,
  modelMs: 5,
  rounds: 2,
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
    close: () => cluster.close(),
  };
  const out: ClusterThroughput = { options: o, single: [], cluster: [] };
  try {
    for (let i = 0; i < o.rounds; i++) {
      out.single.push(await measureLane(single, o));
      say(`  round ${i + 1}: one Redis ${Math.round(out.single[i]?.turnsPerSec ?? 0)} turns/s\n`);
      out.cluster.push(await measureLane(clusterLane, o));
      say(`  round ${i + 1}: Cluster ${Math.round(out.cluster[i]?.turnsPerSec ?? 0)} turns/s\n`);
    }
  } finally {
    await single.close();
    await cluster.close();
  }
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** The median of the rounds, per figure. */
export function laneMedian(runs: LaneFigures[]): LaneFigures {
  const nodes = runs[0]?.nodeCpuPct.length ?? 0;
  return {
    turnsPerSec: median(runs.map((r) => r.turnsPerSec)),
    nodeCpuPct: Array.from({ length: nodes }, (_, i) => median(runs.map((r) => r.nodeCpuPct[i] ?? 0))),
    redisCpuMsPerTurn: median(runs.map((r) => r.redisCpuMsPerTurn)),
  };
}
