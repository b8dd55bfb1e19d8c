// BullMQ connection options: the shared ioredis settings and the deployment's key prefix.
import {
  type ConnectionOptions,
  createIORedisClient,
  type IRedisClient,
  type QueueOptions,
  RedisConnection,
  type RedisOptions,
  type WorkerOptions,
} from 'bullmq';
import { Cluster, Redis } from 'ioredis';
import { clusterClientOptions } from '../core/redis.ts';
import { connectionOf, type RedisTarget, type TargetOptions } from '../core/redis-target.ts';

/** Where a Cluster target's seed nodes ride in BullMQ's connection options, for `clusterAwareFactory`. */
const CLUSTER_KEY = 'baton_cluster';
interface ClusterSpec {
  nodes: { host: string; port: number }[];
  options: TargetOptions;
}

/**
 * BullMQ builds a client from options with `new Redis(...)` only; for a Cluster it needs a `Cluster`. Given
 * a Cluster *instance* instead, BullMQ would never close it (a caller-owned client), so every Queue/Worker
 * close path would have to. Its documented `RedisConnection.clientFactory` hook keeps BullMQ the owner: the
 * factory builds a Cluster for options marked with the seed nodes, and does exactly what BullMQ does
 * otherwise (`new Redis(url, rest)`), so one-Redis and Sentinel connections are unchanged.
 */
function clusterAwareFactory(opts: RedisOptions): IRedisClient {
  const { [CLUSTER_KEY]: cluster, url, ...rest } = opts as RedisOptions & { [CLUSTER_KEY]?: ClusterSpec };
  if (cluster) {
    // Only a worker's dedicated blocking connection (BZPOPMIN on the queue's marker) gets a name from BullMQ.
    // It fails fast in a failover instead of retrying for 30 s: BullMQ's own recovery (its watchdog resets the
    // connection after the block timeout) must not meet a command still retrying on the client it resets,
    // which left a worker waiting forever in runs here. Adds and job moves keep the long retry.
    const blocking = rest.connectionName !== undefined;
    const named = blocking ? { connectionName: rest.connectionName } : {};
    return createIORedisClient(
      new Cluster(
        cluster.nodes,
        clusterClientOptions({ ...cluster.options, ...named }, { failFast: blocking }),
      ),
    );
  }
  return createIORedisClient(url ? new Redis(url, rest) : new Redis(rest));
}

function installClusterFactory(): void {
  const current = RedisConnection.clientFactory;
  if (current === clusterAwareFactory) return;
  // Another factory would get options it cannot read and connect somewhere else: refuse loudly.
  if (current) throw new Error('BullMQ already has a clientFactory; baton cannot add its Redis Cluster one');
  RedisConnection.clientFactory = clusterAwareFactory;
}

/**
 * Options rather than a client: BullMQ then creates and, on close, ends its own connections (a client
 * passed in is never closed by BullMQ and would keep the process alive). `maxRetriesPerRequest: null`
 * makes commands wait through a Redis outage instead of failing. A Sentinel target gives ioredis's
 * `sentinels` + `name` options (core/redis-target.ts); a Cluster target gives its seed nodes, which
 * `clusterAwareFactory` turns into an ioredis Cluster.
 */
export function queueConnection(target: RedisTarget): ConnectionOptions {
  const { url, options, cluster } = connectionOf(target);
  if (cluster) {
    installClusterFactory();
    const spec: ClusterSpec = { nodes: cluster, options };
    return { [CLUSTER_KEY]: spec, maxRetriesPerRequest: null };
  }
  return { ...(url === undefined ? {} : { url }), ...options, maxRetriesPerRequest: null };
}

export function queueOptions(target: RedisTarget, prefix: string): QueueOptions {
  return { connection: queueConnection(target), prefix };
}

export function workerOptions(target: RedisTarget, prefix: string, concurrency: number): WorkerOptions {
  return { connection: queueConnection(target), prefix, concurrency };
}
