// A local Redis Sentinel deployment for tests: a master, one replica and one sentinel, three redis-server
// processes on free ports (no persistence), torn down by close() and, should the test process die, by each
// server's watchdog (redis-server-process.ts). killMaster() SIGKILLs the master and waitForPromotion() waits
// until the sentinel names the replica as the new master.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RedisTarget } from '../../src/core/redis-target.ts';
import { freePort } from './free-port.ts';
import { askPort as ask, type RedisServerProcess, startRedisServer } from './redis-server-process.ts';
import { waitFor } from './wait.ts';

export const SENTINEL_MASTER = 'baton';

export interface SentinelRedis {
  /** `[redis]` as a config names it: url (host ignored), sentinels, sentinel_master. */
  target: RedisTarget;
  /** The TOML lines of that `[redis]` section (without prefix, which the test config adds). */
  toml: string;
  masterPort: number;
  replicaPort: number;
  sentinelPort: number;
  /** The port the sentinel currently names as master. */
  currentMasterPort(): Promise<number>;
  /** The sentinel's config epoch for the master: 0 until its first failover. */
  failoverEpoch(): Promise<number>;
  killMaster(): Promise<void>;
  /** Resolves once the sentinel has promoted the replica and it accepts writes. */
  waitForPromotion(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const NO_PERSISTENCE = ['--save', '', '--appendonly', 'no'];
const PROBE_KEY = 'sentinel-redis:replication-probe';

export async function startSentinelRedis(): Promise<SentinelRedis> {
  const [masterPort, replicaPort, sentinelPort] = [await freePort(), await freePort(), await freePort()];
  const dir = mkdtempSync(join(tmpdir(), 'baton-sentinel-'));
  const procs = new Map<string, RedisServerProcess>();
  const close = async () => {
    await Promise.all([...procs.values()].map((p) => p.kill()));
    rmSync(dir, { recursive: true, force: true });
  };
  const base = ['--bind', '127.0.0.1', '--dir', dir];
  try {
    procs.set('master', await startRedisServer(masterPort, [...base, ...NO_PERSISTENCE]));
    procs.set(
      'replica',
      await startRedisServer(replicaPort, [
        ...base,
        ...NO_PERSISTENCE,
        ...['--replicaof', '127.0.0.1', String(masterPort)],
      ]),
    );
    // The sentinel rewrites its config file, so it gets its own writable one.
    const conf = join(dir, 'sentinel.conf');
    writeFileSync(
      conf,
      [
        `port ${sentinelPort}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${SENTINEL_MASTER} 127.0.0.1 ${masterPort} 1`,
        // Short, yet long enough that a master stalled on a loaded CI machine is not failed over before the kill.
        `sentinel down-after-milliseconds ${SENTINEL_MASTER} 2000`,
        `sentinel failover-timeout ${SENTINEL_MASTER} 4000`,
        `sentinel parallel-syncs ${SENTINEL_MASTER} 1`,
        '',
      ].join('\n'),
    );
    procs.set('sentinel', await startRedisServer(sentinelPort, ['--sentinel'], conf));
  } catch (err) {
    await close();
    throw err;
  }

  const currentMasterPort = async (): Promise<number> => {
    const addr = await ask(sentinelPort, 'SENTINEL', 'get-master-addr-by-name', SENTINEL_MASTER);
    return Array.isArray(addr) ? Number(addr[1]) : 0;
  };
  try {
    await waitFor(
      async () => String(await ask(replicaPort, 'INFO', 'replication')).includes('master_link_status:up'),
      15_000,
      'the replica to sync with the master',
    );
    // The link is up once the replica has loaded the master's snapshot, but after a diskless sync Redis 7 streams
    // the master's writes only from the replica's first acknowledgement (up to a second later): a master killed
    // before then takes every write since the sync with it. The drill needs replication flowing, so a write made
    // now must reach the replica.
    const probe = `replicated-${process.pid}-${Date.now()}`;
    await ask(masterPort, 'SET', PROBE_KEY, probe);
    await waitFor(
      async () => (await ask(replicaPort, 'GET', PROBE_KEY)) === probe,
      15_000,
      "the replica to receive the master's writes",
    );
    await ask(masterPort, 'DEL', PROBE_KEY);
    // A failover needs the sentinel to know the replica (it learns it from the master's INFO).
    await waitFor(
      async () => {
        const replicas = await ask(sentinelPort, 'SENTINEL', 'replicas', SENTINEL_MASTER);
        return Array.isArray(replicas) && replicas.length > 0;
      },
      20_000,
      'the sentinel to discover the replica',
    );
  } catch (err) {
    await close();
    throw err;
  }

  const target: RedisTarget = {
    url: 'redis://ignored-with-sentinels:6379',
    sentinels: [`127.0.0.1:${sentinelPort}`],
    sentinel_master: SENTINEL_MASTER,
  };
  return {
    target,
    toml: `url = "${target.url}"\nsentinels = ["127.0.0.1:${sentinelPort}"]\nsentinel_master = "${SENTINEL_MASTER}"`,
    masterPort,
    replicaPort,
    sentinelPort,
    currentMasterPort,
    async failoverEpoch() {
      const fields = await ask(sentinelPort, 'SENTINEL', 'MASTER', SENTINEL_MASTER);
      if (!Array.isArray(fields)) return -1;
      return Number(fields[fields.indexOf('config-epoch') + 1]);
    },
    async killMaster() {
      await procs.get('master')?.kill();
    },
    async waitForPromotion(timeoutMs = 30_000) {
      await waitFor(
        async () =>
          (await currentMasterPort()) === replicaPort &&
          String(await ask(replicaPort, 'ROLE')).startsWith('master'),
        timeoutMs,
        'the sentinel to promote the replica',
        100,
      );
    },
    close,
  };
}
