// Queue names, in one place. Every queue is created with BullMQ's `prefix` set to `[redis] prefix`.

export const TURNS_QUEUE = 'turns';
export const CRON_QUEUE = 'cron';
/** Background delegations (delegate.md §11.2 names the queue `delegate`). */
export const DELEGATE_QUEUE = 'delegate';

/** Each channel has its own outbox, consumed only by the gateway that holds the channel. */
export function outboxQueueName(channelKey: string): string {
  return `outbox-${channelKey.replace('.', '-')}`;
}
