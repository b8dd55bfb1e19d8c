// SCAN over a whole deployment: one Redis (plain, Sentinel) answers for every key, but a Redis Cluster's SCAN
// sees only the node it is sent to, so on a Cluster every master is scanned (spec/config.md §15.1.1).
import { Cluster, type Redis } from 'ioredis';

/** A plain client or a Cluster: what baton's connection factory may hand out. */
export type ScannableRedis = Redis | Cluster;

/** True for an ioredis Cluster (or anything shaped like one: a `nodes` method listing its masters). */
export function isCluster(redis: ScannableRedis): redis is Cluster {
  return redis instanceof Cluster || typeof (redis as { nodes?: unknown }).nodes === 'function';
}

/** The clients whose SCAN together covers every key: the one client, or each master of a Cluster. */
function scanTargets(redis: ScannableRedis): Redis[] {
  return isCluster(redis) ? redis.nodes('master') : [redis];
}

/**
 * Batches of the keys matching `pattern`, each batch from one node (so a pipeline over one batch stays on one
 * node of a Cluster). A key may appear in two batches (SCAN's own guarantee); callers that care dedupe.
 */
export async function* scanBatches(
  redis: ScannableRedis,
  pattern: string,
  count = 500,
): AsyncGenerator<string[]> {
  for (const node of scanTargets(redis)) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', count);
      cursor = next;
      if (keys.length > 0) yield keys;
    } while (cursor !== '0');
  }
}

/** Every key matching `pattern`, once each, in no particular order (SCAN, never KEYS). */
export async function scanKeys(redis: ScannableRedis, pattern: string, count = 500): Promise<string[]> {
  const out = new Set<string>();
  for await (const batch of scanBatches(redis, pattern, count)) for (const k of batch) out.add(k);
  return [...out];
}
