// Redis connections: one factory with the options BullMQ needs and an operator-friendly reachability check.
import { Cluster, type ClusterOptions, Redis } from 'ioredis';
import {
  connectionOf,
  describeTarget,
  type RedisTarget,
  type TargetOptions,
  usesCluster,
} from './redis-target.ts';
import { coalesceTickWrites } from './tick-writes.ts';

/**
 * How long a Cluster command keeps retrying while its slot's master is down (connection closed,
 * CLUSTERDOWN): `maxRedirections` × the retry delays ≈ 30 s, past Redis's default cluster-node-timeout
 * (15 s) plus the replica's election. ioredis's defaults (16 × 100 ms) would fail commands in the middle
 * of an ordinary failover, where a single Redis or Sentinel target waits (maxRetriesPerRequest: null).
 */
export const CLUSTER_RETRY: Pick<
  ClusterOptions,
  'maxRedirections' | 'retryDelayOnFailover' | 'retryDelayOnClusterDown' | 'retryDelayOnTryAgain'
> & { slotsRefreshTimeout: number } = {
  maxRedirections: 120,
  retryDelayOnFailover: 250,
  retryDelayOnClusterDown: 250,
  retryDelayOnTryAgain: 250,
  // The default 1 s fails slot refreshes on a loaded machine; a refresh is rare, so patience is cheap.
  slotsRefreshTimeout: 3000,
};

/** The ioredis Cluster options for seed nodes and per-node options (BullMQ's connections use them too). */
export function clusterClientOptions(
  nodeOptions: TargetOptions & { connectionName?: string },
  opts: { lazy?: boolean; autoPipeline?: boolean; failFast?: boolean } = {},
): ClusterOptions {
  return {
    ...(opts.failFast ? {} : CLUSTER_RETRY),
    // BullMQ checks maxRetriesPerRequest on the node options: null, as for a single Redis.
    redisOptions: { ...nodeOptions, maxRetriesPerRequest: null },
    lazyConnect: opts.lazy ?? false,
    enableReadyCheck: true,
    enableAutoPipelining: opts.autoPipeline ?? false,
  };
}

/**
 * One client for the target. For `[redis] cluster_nodes` it is an ioredis `Cluster`, typed as `Redis` so the
 * code stays written against one client type; what differs on a Cluster: every multi-key command, script and
 * MULTI must stay in one hash slot (core/key-layout.ts), SCAN/KEYS/INFO reach one random node (scan every
 * master with core/redis-scan.ts), `scanStream` does not exist, and `duplicate()` takes (nodes, options)
 * (called without arguments, as baton does, it copies the client like Redis's). Pub/sub works unchanged.
 * `autoPipeline`: the commands one tick issues leave in one write (core/tick-writes.ts; on a Cluster, ioredis's
 * auto-pipelining, which routes per node).
 */
export function createRedis(
  target: RedisTarget,
  opts: { lazy?: boolean; autoPipeline?: boolean } = {},
): Redis {
  const { url, options, cluster } = connectionOf(target);
  if (cluster) return new Cluster(cluster, clusterClientOptions(options, opts)) as unknown as Redis;
  const all = {
    ...options,
    // maxRetriesPerRequest: null is what BullMQ requires; commands wait for a reconnect instead of failing.
    maxRetriesPerRequest: null,
    lazyConnect: opts.lazy ?? false,
    enableReadyCheck: true,
  };
  const redis = url === undefined ? new Redis(all) : new Redis(url, all);
  // Commands issued in the same tick leave in one write: fewer syscalls on the per-turn hot path.
  return opts.autoPipeline ? coalesceTickWrites(redis) : redis;
}

export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}

/** Connects and pings within `timeoutMs`, or fails with one clear line telling how to start Redis. */
export async function connectRedis(target: RedisTarget, timeoutMs = 3000): Promise<Redis> {
  const redis = createRedis(target, { lazy: true, autoPipeline: true });
  let lastError: Error | undefined;
  // Reported through the failed ping below (ioredis keeps retrying on its own); the socket error says more.
  redis.on('error', (e: Error & { lastNodeError?: Error }) => {
    // A Cluster reports "Failed to refresh slots cache"; the node's own error says why.
    lastError = e.lastNodeError ?? e;
  });
  const timer = new Promise<never>((_, reject) => {
    setTimeout(() => reject(new Error('timed out')), timeoutMs).unref();
  });
  try {
    await Promise.race([redis.connect().then(() => redis.ping()), timer]);
    return redis;
  } catch (err) {
    redis.disconnect();
    const said = lastError?.message ?? (err instanceof Error ? err.message : String(err));
    const why = ((usesCluster(target) && (await seedNodeProblem(target, timeoutMs))) || said).replace(
      /\.$/,
      '',
    );
    const hint = usesCluster(target)
      ? 'Check that the cluster nodes are up and agree (`redis-cli -c -h <host> -p <port> cluster info` shows cluster_state:ok).'
      : 'Start one with `docker compose up -d redis` or `redis-server`.';
    throw new RedisUnavailableError(`Cannot reach Redis at ${describeTarget(target)}: ${why}. ${hint}`);
  }
}

/**
 * Why a Cluster did not connect, from its first seed node: ioredis reports any node failure as "Connection is
 * closed", so ask the node directly (refused, wrong password, cluster support off, cluster_state not ok).
 */
async function seedNodeProblem(target: RedisTarget, timeoutMs: number): Promise<string | undefined> {
  const { options, cluster } = connectionOf(target);
  const seed = cluster?.[0];
  if (!seed) return undefined;
  const probe = new Redis({
    ...options,
    ...seed,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: timeoutMs,
  });
  let socketError: string | undefined;
  probe.on('error', (e: Error) => {
    socketError ??= e.message;
  });
  try {
    await probe.connect();
  } catch (e) {
    return socketError ?? (e instanceof Error ? e.message : String(e));
  }
  try {
    const info = String(await probe.call('CLUSTER', 'INFO'));
    const state = /cluster_state:(\w+)/.exec(info)?.[1] ?? 'unknown';
    return state === 'ok' ? undefined : `${seed.host}:${seed.port} says cluster_state:${state}`;
  } catch (e) {
    return `${seed.host}:${seed.port} answers "${e instanceof Error ? e.message : String(e)}"`;
  } finally {
    probe.disconnect();
  }
}

/** connectRedis for commands: on failure prints `error: <one line>` through `err` and returns null. */
export async function connectRedisOrExplain(
  target: RedisTarget,
  err: (line: string) => void,
): Promise<Redis | null> {
  try {
    return await connectRedis(target);
  } catch (e) {
    err(`error: ${e instanceof Error ? e.message : String(e)}`);
    return null;
  }
}
