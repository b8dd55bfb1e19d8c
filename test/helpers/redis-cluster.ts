// A local Redis Cluster for tests: 3 masters (and, with `replicas`, one replica each), redis-server processes on
// free ports in a temp dir (no persistence), joined by `redis-cli --cluster create`, torn down by close() and,
// should the test process die, by each server's watchdog (redis-server-process.ts). killMaster() SIGKILLs a
// master; waitForPromotion() waits until its replica serves its slots and the cluster is ok again.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RedisTarget } from '../../src/core/redis-target.ts';
import { freePort } from './free-port.ts';
import { askPort, cpuSecondsOf, type RedisServerProcess, startRedisServer } from './redis-server-process.ts';
import { waitFor } from './wait.ts';

const run = promisify(execFile);

export interface RedisCluster {
  /** `[redis]` as a config names it: the masters' URLs as seed nodes (url is ignored). */
  target: RedisTarget;
  /** The TOML line of that `[redis]` section (without prefix, which the test config adds). */
  toml: string;
  masterPorts: number[];
  /** All node ports, masters first. */
  ports: number[];
  /** The port of the master serving `slot` now. */
  masterOf(slot: number): Promise<number>;
  /** The replica of a master (by port), as the cluster knows it; undefined without replicas. */
  replicaOf(masterPort: number): number | undefined;
  /** How many of the first masters are no longer masters (0 until a failover): the drills' sanity check. */
  failoverEpoch(): Promise<number>;
  /** SIGKILLs a master (default: the one serving slot 0) and returns its port. */
  killMaster(port?: number): Promise<number>;
  /** Resolves once the killed master's replica serves its slots and every live node says cluster_state:ok. */
  waitForPromotion(timeoutMs?: number): Promise<void>;
  /** used_cpu_sys + used_cpu_user (seconds) per live node port, from INFO cpu. */
  cpuSeconds(): Promise<Map<number, number>>;
  close(): Promise<void>;
}

export interface ClusterPlan {
  /** One replica per master (for failover drills). */
  replicas?: boolean;
  /**
   * How long a master may not answer before it is failed over (cluster-node-timeout). Short, yet long enough
   * that a master stalled on a loaded 2-core CI machine is not failed over before the drill kills it.
   */
  nodeTimeoutMs?: number;
}

/** Parses `CLUSTER NODES`: port → { role, masterId, id, failed }. */
function clusterNodes(text: string) {
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const [id = '', addr = '', flags = '', master = ''] = line.split(' ');
      return {
        id,
        port: Number(/:(\d+)@/.exec(addr)?.[1] ?? 0),
        master: flags.includes('master'),
        failed: flags.includes('fail'),
        masterId: master === '-' ? undefined : master,
      };
    });
}

export async function startRedisCluster(plan: ClusterPlan = {}): Promise<RedisCluster> {
  const { stdout } = await run('redis-server', ['--version']);
  const version = / v=(\d+)\.(\S+)/.exec(stdout);
  if (!version || Number(version[1]) < 7) {
    throw new Error(
      `the Redis Cluster tests need redis-server 7.0+ (--cluster-port); found: ${stdout.trim()}`,
    );
  }
  const count = plan.replicas ? 6 : 3;
  const dir = mkdtempSync(join(tmpdir(), 'baton-cluster-'));
  const servers = new Map<number, RedisServerProcess>();
  const taken = new Set<number>();
  const close = async () => {
    await Promise.all([...servers.values()].map((s) => s.kill()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < count; i++) {
      // The cluster bus needs its own port; Redis 7 takes it explicitly instead of port + 10000.
      const [port, busPort] = [await unusedPort(taken), await unusedPort(taken)];
      servers.set(
        port,
        await startRedisServer(port, [
          '--bind',
          '127.0.0.1',
          '--dir',
          dir,
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          `nodes-${port}.conf`,
          '--cluster-port',
          String(busPort),
          '--cluster-node-timeout',
          String(plan.nodeTimeoutMs ?? 5000),
          // A replica is promoted however long it was cut off: the drill counts on the promotion.
          '--cluster-replica-validity-factor',
          '0',
          '--save',
          '',
          '--appendonly',
          'no',
        ]),
      );
    }
    const ports = [...servers.keys()];
    for (const port of ports)
      await waitFor(async () => (await askPort(port)) === 'PONG', 15_000, `node ${port}`);
    // Masters are the first three given; redis-cli assigns each a replica from the rest.
    await run(
      'redis-cli',
      [
        '--cluster',
        'create',
        ...ports.map((p) => `127.0.0.1:${p}`),
        '--cluster-replicas',
        plan.replicas ? '1' : '0',
        '--cluster-yes',
      ],
      { timeout: 60_000 },
    );
    await waitFor(() => clusterOk(ports, count), 60_000, 'cluster_state:ok on every node', 100);
    // A replica that has not synced yet could not take over (and would lose what its master acknowledged).
    for (const port of ports.slice(3)) {
      await waitFor(
        async () => String(await askPort(port, 'INFO', 'replication')).includes('master_link_status:up'),
        30_000,
        `the replica on ${port} to sync`,
        100,
      );
    }
    if (plan.replicas) for (const port of ports.slice(0, 3)) await waitForReplication(port);
  } catch (err) {
    await close();
    throw err;
  }
  const ports = [...servers.keys()];
  const masterPorts = ports.slice(0, 3);
  const ids = new Map<number, string>();
  const replicas = new Map<number, number>();
  for (const n of clusterNodes(String(await askPort(ports[0] ?? 0, 'CLUSTER', 'NODES'))))
    ids.set(n.port, n.id);
  for (const n of clusterNodes(String(await askPort(ports[0] ?? 0, 'CLUSTER', 'NODES')))) {
    const master = [...ids].find(([, id]) => id === n.masterId)?.[0];
    if (master !== undefined) replicas.set(master, n.port);
  }
  const live = () => ports.filter((p) => servers.get(p)?.alive());
  const masterOf = async (slot: number): Promise<number> => {
    for (const port of live()) {
      const slots = await askPort(port, 'CLUSTER', 'SLOTS');
      if (!Array.isArray(slots)) continue;
      for (const range of slots as [number, number, [string, number]][]) {
        if (slot >= range[0] && slot <= range[1]) return Number(range[2][1]);
      }
    }
    return 0;
  };
  let killed: number | undefined;
  const seeds = masterPorts.map((p) => `redis://127.0.0.1:${p}`);
  return {
    target: { url: 'redis://ignored-with-cluster-nodes:6379', cluster_nodes: seeds },
    toml: `cluster_nodes = ${JSON.stringify(seeds)}`,
    masterPorts,
    ports,
    masterOf,
    replicaOf: (port) => replicas.get(port),
    async failoverEpoch() {
      let n = 0;
      for (const port of masterPorts) if (!String(await askPort(port, 'ROLE')).startsWith('master')) n++;
      return n;
    },
    async killMaster(port) {
      const victim = port ?? (await masterOf(0));
      killed = victim;
      await servers.get(victim)?.kill();
      return victim;
    },
    async waitForPromotion(timeoutMs = 60_000) {
      const replica = killed === undefined ? undefined : replicas.get(killed);
      if (replica === undefined) throw new Error('waitForPromotion: no master killed, or it had no replica');
      await waitFor(
        async () =>
          String(await askPort(replica, 'ROLE')).startsWith('master') &&
          (await clusterOk(live(), live().length)),
        timeoutMs,
        `the replica on ${replica} to take over from ${killed}`,
        100,
      );
    },
    cpuSeconds: () => cpuSecondsOf(live()),
    close,
  };
}

/** A free port not handed out already in this cluster (the OS may offer a just-closed one again). */
async function unusedPort(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (!taken.has(port)) {
      taken.add(port);
      return port;
    }
  }
}

/** Every port answers cluster_state:ok and knows `known` nodes that are not failed. */
async function clusterOk(ports: number[], known: number): Promise<boolean> {
  for (const port of ports) {
    const info = String(await askPort(port, 'CLUSTER', 'INFO'));
    if (!info.includes('cluster_state:ok')) return false;
    const nodes = clusterNodes(String(await askPort(port, 'CLUSTER', 'NODES')));
    if (nodes.filter((n) => !n.failed).length < known) return false;
  }
  return true;
}

const replicationOffset = (info: unknown, pattern: RegExp): number =>
  Number(pattern.exec(String(info))?.[1] ?? -1);

/**
 * A write on the master reaches its replica. A link reported up is not proof that writes flow: a Sentinel
 * drill's replica sat at its sync offset while its master moved on (test/helpers/sentinel-redis.ts), and a
 * master killed then takes every write since the sync with it. The replica's acknowledged offset is read from
 * the master (the replica answers a key of its master's slots with MOVED).
 */
async function waitForReplication(masterPort: number): Promise<void> {
  let key = '';
  for (let i = 0; i < 1000 && key === ''; i++) {
    // A key of another master's slots is refused (MOVED): the first that this master takes is its own.
    if ((await askPort(masterPort, 'SET', `replication-probe-${i}`, '1')) === 'OK')
      key = `replication-probe-${i}`;
  }
  if (key === '') throw new Error(`no key of the master on ${masterPort} could be written`);
  const written = replicationOffset(
    await askPort(masterPort, 'INFO', 'replication'),
    /master_repl_offset:(\d+)/,
  );
  await waitFor(
    async () =>
      replicationOffset(await askPort(masterPort, 'INFO', 'replication'), /slave0:[^\r\n]*offset=(\d+)/) >=
      written,
    15_000,
    `the replica of the master on ${masterPort} to acknowledge a write`,
    100,
  );
  await askPort(masterPort, 'DEL', key);
}
