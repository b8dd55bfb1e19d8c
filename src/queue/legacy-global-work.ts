// Work the release before the hash-tagged layout left outside the conversation path (spec/config.md §15.1.1): its
// delegate and cron queues used the bare prefix as BullMQ prefix, and its running background tasks and pending
// approvals sat under `<prefix>:`. A process of the new layout would never see them, so the start-up layout check
// refuses while any holds work (drain with the previous release first). Each key is read alone (one slot each).
import type { Redis } from 'ioredis';
import { CRON_QUEUE, DELEGATE_QUEUE } from './names.ts';

/** BullMQ's lists/sorted sets of jobs not finished yet (waiting, running, delayed, prioritized, paused, parents). */
const UNFINISHED = ['wait', 'active', 'delayed', 'prioritized', 'paused', 'waiting-children'] as const;
/**
 * Cron without `delayed`: a scheduler's next fire always waits there, and the new layout's workers schedule every
 * job again under the new prefix at start, so only fires already due or running are work to drain.
 */
const CRON_UNFINISHED = UNFINISHED.filter((part) => part !== 'delayed');

/** The old-layout keys that hold unfinished non-conversation work. */
export function legacyGlobalWorkKeys(prefix: string): string[] {
  return [
    ...UNFINISHED.map((part) => `${prefix}:${DELEGATE_QUEUE}:${part}`),
    ...CRON_UNFINISHED.map((part) => `${prefix}:${CRON_QUEUE}:${part}`),
    `${prefix}:delegate-inflight`,
    `${prefix}:approvals:pending`,
  ];
}

async function sizeOf(redis: Redis, key: string): Promise<number> {
  switch (await redis.type(key)) {
    case 'list':
      return redis.llen(key);
    case 'zset':
      return redis.zcard(key);
    case 'set':
      return redis.scard(key);
    default:
      return 0;
  }
}

/** `<key> (<n>)` for each old-layout key that still holds work; empty when nothing is left. */
export async function legacyGlobalWork(redis: Redis, prefix: string): Promise<string[]> {
  const keys = legacyGlobalWorkKeys(prefix);
  const sizes = await Promise.all(keys.map((k) => sizeOf(redis, k)));
  return keys.flatMap((k, i) => ((sizes[i] ?? 0) > 0 ? [`${k} (${sizes[i]})`] : []));
}
