// Queue, stream and key names, in one place. A conversation's keys share its partition's hash tag
// (core/key-layout.ts, spec/config.md §15.1.1): every script that settles, accepts or sends for it touches one slot.
import type { Recipient } from '../channel-host/types.ts';
import { conversationId } from '../channel-host/types.ts';
import { conversationTag, type KeySpace, partitionOf, partitionTag } from '../core/key-layout.ts';

export const TURNS_QUEUE = 'turns';
export const CRON_QUEUE = 'cron';
/** Background delegations (delegate.md §11.2 names the queue `delegate`). */
export const DELEGATE_QUEUE = 'delegate';

/** The conversation a reply to `to` belongs to: its outbox stream and reply keys sit in that partition. */
export const recipientConversation = (to: Recipient): string =>
  conversationId(to.channel, to.chat, to.thread);

/** The partition of a conversation in this key space. */
export const partitionOfConversation = (space: KeySpace, conversation: string): number =>
  partitionOf(conversation, space.partitions);

/** The BullMQ prefix of partition `n`'s turns queue: BullMQ's own keys of the queue share the partition tag. */
export const turnsQueuePrefix = (space: KeySpace, n: number): string => partitionTag(space.prefix, n);

/** Each channel has its own outbox, consumed only by the gateway that holds the channel. */
export function outboxQueueName(channelKey: string): string {
  return `outbox-${channelKey.replace('.', '-')}`;
}

/** The Redis stream of a channel's outbox in partition `n` (see reply-outbox.ts): one per channel and partition. */
export function outboxStreamKeyOf(space: KeySpace, channelKey: string, n: number): string {
  return `${partitionTag(space.prefix, n)}:${outboxQueueName(channelKey)}`;
}

/** The outbox stream a conversation's replies go to: its channel's stream in its partition. */
export function outboxStreamKey(space: KeySpace, channelKey: string, conversation: string): string {
  return outboxStreamKeyOf(space, channelKey, partitionOfConversation(space, conversation));
}

/** The consumer group of every outbox stream: the gateways holding the channel. */
export const OUTBOX_GROUP = 'senders';

/** Marks a reply as queued, so a redelivered turn or cron fire that replies again is dropped. */
export function replyIdempotencyKey(space: KeySpace, conversation: string, idempotencyKey: string): string {
  return `${conversationTag(space, conversation)}:reply-key:${idempotencyKey}`;
}

/** The last reply sequence sent in a conversation (reply-order.ts claims against it, outbox-stream.ts moves it). */
export function replySentKey(space: KeySpace, conversation: string): string {
  return `${conversationTag(space, conversation)}:reply-sent:${conversation}`;
}

/**
 * A conversation's inbox (a list: arrival order), its reply sequence counter, the set of busy conversations of
 * its partition (one set per partition: readers visit them all), and the dedupe marks of its platform events.
 */
export const inboxKeys = (space: KeySpace) => ({
  inbox: (conversation: string) => `${conversationTag(space, conversation)}:inbox:${conversation}`,
  seq: (conversation: string) => `${conversationTag(space, conversation)}:conv-seq:${conversation}`,
  /** The busy set of the conversation's partition. */
  active: (conversation: string) => inboxActiveKey(space, partitionOfConversation(space, conversation)),
  /** Set when an event waits on a finishing drain job: that job's completion owes the conversation a kick. */
  kickOwed: (conversation: string) => `${conversationTag(space, conversation)}:kick-owed:${conversation}`,
  /** A platform event already accepted (its redelivery is dropped). */
  dedupe: (conversation: string, channel: string, eventId: string) =>
    `${conversationTag(space, conversation)}:dedupe:${channel}:${eventId}`,
});

/** The set of conversations with waiting events in partition `n`. */
export const inboxActiveKey = (space: KeySpace, n: number): string =>
  `${partitionTag(space.prefix, n)}:inbox-active`;

/** The per-chat pacing slot of `reply_min_interval_secs` (only ever touched alone). */
export function paceKey(prefix: string, channelKey: string, chat: string): string {
  return `${prefix}:pace:${channelKey}:${chat}`;
}

/**
 * A turn's live messages (live.md §2, §3): their refs, the final mark, the ops handled; and each slot's busy mark.
 * Under the conversation's tag: a live op is queued to its outbox stream in the same script.
 */
export const liveKeys = (space: KeySpace, conversation: string, root: string) => {
  const state = `${conversationTag(space, conversation)}:live:${root}`;
  return { state, busy: (slot: string) => `${state}:busy:${slot}` };
};

/** A turn's runs that queued live ops, oldest first: a turn handed to another worker runs again as a new run. */
export const liveTurnKey = (space: KeySpace, conversation: string, turnId: string) =>
  `${conversationTag(space, conversation)}:live-turn:${turnId}`;

/** When a chat may get its next live op (live.md §2 step 2): set when the platform answered the last one. */
export function livePaceKey(prefix: string, channelKey: string, chat: string): string {
  return `${prefix}:live-pace:${channelKey}:${chat}`;
}

/** The files a turn's runs queued with send_file (media.md §2), sent with the answer of the run that answers. */
export const turnFilesKey = (space: KeySpace, conversation: string, turnId: string) =>
  `${conversationTag(space, conversation)}:turn-files:${turnId}`;

/** The key space of a `[redis]` config: its prefix and partitions. */
export const keySpaceOf = (redis: { prefix: string; partitions: number }): KeySpace => ({
  prefix: redis.prefix,
  partitions: redis.partitions,
});
