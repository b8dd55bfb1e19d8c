// How the keys of [redis] combine (spec/config.md §15.1): Sentinel or Cluster, the master name, and what
// this version cannot do yet. Partitions 1–256 work on every form (the range has its own error). Reads
// the raw document, like rules.ts, so a sibling's type error does not hide these.
import { CLUSTER_NOT_YET } from '../core/redis-target.ts';
import {
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
  if (cluster) error('redis.cluster_nodes', CLUSTER_NOT_YET);
  return out;
}
