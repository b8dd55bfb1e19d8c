// Queue and stream names, in one place. Every queue is created with BullMQ's `prefix` set to `[redis] prefix`.
export const TURNS_QUEUE = 'turns';
export const CRON_QUEUE = 'cron';
/** Background delegations (delegate.md §11.2 names the queue `delegate`). */
export const DELEGATE_QUEUE = 'delegate';

/** Each channel has its own outbox, consumed only by the gateway that holds the channel. */
export function outboxQueueName(channelKey: string): string {
  return `outbox-${channelKey.replace('.', '-')}`;
}

/** The Redis stream behind a channel's outbox (see reply-outbox.ts). */
export function outboxStreamKey(prefix: string, channelKey: string): string {
  return `${prefix}:${outboxQueueName(channelKey)}`;
}

/** The consumer group of every outbox stream: the gateways holding the channel. */
export const OUTBOX_GROUP = 'senders';

/** Marks a reply as queued, so a redelivered turn or cron fire that replies again is dropped. */
export function replyIdempotencyKey(prefix: string, idempotencyKey: string): string {
  return `${prefix}:reply-key:${idempotencyKey}`;
}

/** The last reply sequence sent in a conversation (reply-order.ts claims against it, outbox-stream.ts moves it). */
export function replySentKey(prefix: string, conversation: string): string {
  return `${prefix}:reply-sent:${conversation}`;
}

/** A conversation's inbox (a list: arrival order), its reply sequence counter, and the set of busy conversations. */
export const inboxKeys = (prefix: string) => ({
  inbox: (conversation: string) => `${prefix}:inbox:${conversation}`,
  seq: (conversation: string) => `${prefix}:conv-seq:${conversation}`,
  active: `${prefix}:inbox-active`,
  /** A platform event already accepted (its redelivery is dropped). */
  dedupe: (channel: string, eventId: string) => `${prefix}:dedupe:${channel}:${eventId}`,
});

/** The per-chat pacing slot of `reply_min_interval_secs`. */
export function paceKey(prefix: string, channelKey: string, chat: string): string {
  return `${prefix}:pace:${channelKey}:${chat}`;
}

/** A turn's live messages (live.md §2, §3): their refs, the final mark, the ops handled; and each slot's busy mark. */
export const liveKeys = (prefix: string, root: string) => ({
  state: `${prefix}:live:{${root}}`,
  busy: (slot: string) => `${prefix}:live:{${root}}:busy:${slot}`,
});

/** A turn's runs that queued live ops, oldest first: a turn handed to another worker runs again as a new run. */
export const liveTurnKey = (prefix: string, turnId: string) => `${prefix}:live-turn:${turnId}`;

/** When a chat may get its next live op (live.md §2 step 2): set when the platform answered the last one. */
export function livePaceKey(prefix: string, channelKey: string, chat: string): string {
  return `${prefix}:live-pace:${channelKey}:${chat}`;
}

/** The files a turn's runs queued with send_file (media.md §2), sent with the answer of the run that answers. */
export const turnFilesKey = (prefix: string, turnId: string) => `${prefix}:turn-files:${turnId}`;
