// How the keys of [redis] combine (spec/config.md §15.1): Sentinel or Cluster, the master name, and Cluster
// node URLs that one client can use. Partitions 1–256 work on every form (the range has its own error).
// Reads the raw document, like rules.ts, so a sibling's type error does not hide these.
import { isRedisUrl } from '../core/redis-target.ts';
import {
  CLUSTER_DATABASE,
  CLUSTER_NODES_DISAGREE,
  invalid,
  SENTINEL_MASTER_REQUIRED,
  SENTINEL_MASTER_UNUSED,
  SENTINELS_AND_CLUSTER,
  warningText,
} from './config-messages.ts';
import { isTable } from './toml-path.ts';
import type { Diagnostic } from './types.ts';

export function checkRedisRules(doc: Record<string, unknown>): Diagnostic[] {
  const redis = isTable(doc.redis) ? doc.redis : {};
  const out: Diagnostic[] = [];
  const error = (path: string, reason: string): void => {
    out.push({ severity: 'error', path, message: invalid(path, reason) });
  };
  const sentinels = redis.sentinels !== undefined;
  const cluster = redis.cluster_nodes !== undefined;
  const master = redis.sentinel_master;
  if (sentinels && cluster) error('redis', SENTINELS_AND_CLUSTER);
  if (sentinels && (master === undefined || (typeof master === 'string' && master.trim() === ''))) {
    error('redis.sentinel_master', SENTINEL_MASTER_REQUIRED);
  }
  if (!sentinels && master !== undefined) {
    const path = 'redis.sentinel_master';
    out.push({ severity: 'warning', path, message: warningText(path, SENTINEL_MASTER_UNUSED) });
  }
  if (Array.isArray(redis.cluster_nodes)) checkClusterNodes(redis.cluster_nodes, error);
  return out;
}

/**
 * One ioredis Cluster client uses one set of node options: every node URL must agree with the first on
 * scheme, username and password; and a Cluster has database 0 only.
 */
function checkClusterNodes(nodes: unknown[], error: (path: string, reason: string) => void): void {
  const urls = nodes.map((n) => (typeof n === 'string' && isRedisUrl(n) ? new URL(n) : undefined));
  const first = urls[0];
  for (const [i, u] of urls.entries()) {
    if (!u) continue; // the schema already names a malformed URL
    const path = `redis.cluster_nodes[${i}]`;
    if (!/^\/?0?$/.test(u.pathname)) error(path, CLUSTER_DATABASE);
    else if (
      first &&
      i > 0 &&
      (u.protocol !== first.protocol || u.username !== first.username || u.password !== first.password)
    ) {
      error(path, CLUSTER_NODES_DISAGREE);
    }
  }
}
