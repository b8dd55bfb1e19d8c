// BullMQ prefixes of the deployment-wide queues (cron, delegate). BullMQ's own scripts touch many keys of one
// queue, so on a Redis Cluster a queue's prefix must be a hash tag (spec/config.md §15.1.1); each of these
// queues gets its subsystem's tag. The turns queue is per partition (partitionTag), see conversation-inbox.ts.
import { globalTag } from '../core/key-layout.ts';

/** The cron queue's BullMQ prefix: `{<prefix>:cron}`. */
export const cronQueuePrefix = (prefix: string): string => globalTag(prefix, 'cron');

/** The delegate queue's BullMQ prefix: `{<prefix>:delegate}` (no script touches it with the task records). */
export const delegateQueuePrefix = (prefix: string): string => globalTag(prefix, 'delegate');
