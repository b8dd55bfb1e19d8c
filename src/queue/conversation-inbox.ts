// Per-conversation inboxes in Redis: arrival order is the list order; the head stays until its turn settles.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { MESSAGE_UNREADABLE } from '../channel-host/channel-messages.ts';
import type { Recipient } from '../channel-host/types.ts';
import { conversationRecipient, inboundMessageSchema } from '../channel-host/types.ts';
import { changeArgs } from '../core/dashboard-changes.ts';
import { allPartitions, type KeySpace } from '../core/key-layout.ts';
import type { Logger } from '../core/logger.ts';
import { parseRecord } from '../core/redis-record.ts';
import { loadRedisScript } from '../core/redis-script.ts';
import { runningTurnsKey } from '../fleet/running-turns.ts';
import type { ChatMessage } from '../providers/types.ts';
import { HISTORY_MAX_STORED, HISTORY_TTL_SECS, historyKeys } from '../session/history-store.ts';
import { sessionIndexKey, sessionIndexMember } from '../session/session-index.ts';
import {
  inboxActiveKey,
  inboxKeys,
  liveTurnKey,
  outboxStreamKey,
  partitionOfConversation,
  replyIdempotencyKey,
  replySentKey,
  TURNS_QUEUE,
  turnFilesKey,
  turnsQueuePrefix,
} from './names.ts';
import { outboxEntryArgs } from './outbox-entry.ts';
import { REPLY_IDEMPOTENCY_TTL_SECS } from './reply-outbox.ts';

const ingestEvent = loadRedisScript(join(import.meta.dirname, 'lua', 'ingest-event-7.lua'));
const dropUnreadableHead = loadRedisScript(join(import.meta.dirname, 'lua', 'drop-unreadable-head-4.lua'));
const settleTurn = loadRedisScript(join(import.meta.dirname, 'lua', 'settle-turn-10.lua'));

/** An accepted message with the agent the host routed it to and its place in the conversation. */
export const queuedMessageSchema = inboundMessageSchema.extend({
  agent: z.string().min(1),
  seq: z.number().int(),
});
export type QueuedMessage = z.infer<typeof queuedMessageSchema>;

/** Conversation counters outlive any plausible gap between two messages of one conversation. */
const SEQUENCE_TTL_SECS = 30 * 24 * 60 * 60;

/** Long enough to absorb platform redeliveries (Slack retries, Telegram offsets, webhook replays). */
export const DEDUPE_TTL_SECS = 24 * 60 * 60;

/**
 * `first`: the inbox was empty, so the conversation needs a drain job; `queued`: behind events that the
 * conversation's drain job will reach; `duplicate`: this platform event was already accepted.
 */
export type AcceptResult = 'first' | 'queued' | 'duplicate';

/** What a finished turn commits with the removal of its event: its reply and its history. */
export interface SettledTurn {
  to: Recipient;
  text: string;
  turnId: string;
  /** The session history the turn adds to (none when the turn failed). */
  history?: { agent: string; sessionKey: string; messages: readonly ChatMessage[] };
  /** The root run that answered: the reply replaces the live previews of the turn's runs (live.md §2 step 3). */
  runId?: string;
}

export interface ConversationInbox {
  accept(conversation: string, event: Omit<QueuedMessage, 'seq'>): Promise<AcceptResult>;
  head(conversation: string): Promise<QueuedMessage | null>;
  /**
   * Appends the turn's history, queues its reply, drops the head if it is `event` and clears its running
   * mark, in one step; returns the next head, if any.
   */
  settle(conversation: string, event: QueuedMessage, turn: SettledTurn): Promise<QueuedMessage | null>;
  pending(conversation: string): Promise<number>;
  /** Events are waiting and no drain job exists for them (one that exists reaches them or re-kicks). */
  needsKick(conversation: string): Promise<boolean>;
  /** Conversations that have events waiting (for the sweeper). */
  activeConversations(): Promise<string[]>;
}

/** BullMQ job ids may not contain ':'; conversation ids do, so jobs use a digest. */
export function conversationJobId(conversation: string): string {
  return `conv-${createHash('sha1').update(conversation).digest('hex')}`;
}

/**
 * The Redis hash BullMQ keeps for the conversation's drain job while it exists (`<BullMQ prefix>:<queue>:<job id>`);
 * the BullMQ prefix of the conversation's turns queue is its partition tag, so the hash shares the inbox's slot.
 */
export function drainJobKey(space: KeySpace, conversation: string): string {
  const prefix = turnsQueuePrefix(space, partitionOfConversation(space, conversation));
  return `${prefix}:${TURNS_QUEUE}:${conversationJobId(conversation)}`;
}

/** A turn's id: the platform event it answers (history and reply idempotency key). */
export function turnIdOf(event: Pick<QueuedMessage, 'channel' | 'eventId'>): string {
  return `${event.channel}:${event.eventId}`;
}

/** The reply sequence an unreadable event still carries, if any (else the script works it out). */
function storedSeq(raw: string): number | '' {
  try {
    const seq = (JSON.parse(raw) as { seq?: unknown } | null)?.seq;
    return typeof seq === 'number' && Number.isInteger(seq) && seq > 0 ? seq : '';
  } catch {
    return '';
  }
}

/** `historyMaxStored`: `[worker] transcript_max_entries`, the entries a session's stored transcript keeps. */
export function createConversationInbox(
  redis: Redis,
  space: KeySpace,
  logger: Logger,
  historyMaxStored = HISTORY_MAX_STORED,
): ConversationInbox {
  const { prefix } = space;
  const keys = inboxKeys(space);
  const inboxKey = keys.inbox;
  const activeKey = keys.active;
  const seqKey = keys.seq;
  /**
   * The head as an event. An unreadable head (another version's, or damaged) is logged and dropped, and its
   * sender gets a short notice in its place in the reply order, so the conversation's later replies still leave.
   */
  async function readable(conversation: string, raw: string | null): Promise<QueuedMessage | null> {
    let head = raw;
    while (head !== null) {
      const key = `${inboxKey(conversation)}[0]`;
      const event = parseRecord(queuedMessageSchema, head, { logger, key, what: 'inbox event' });
      if (event) return event;
      const to = conversationRecipient(conversation);
      const [dropped, next] = (await dropUnreadableHead(
        redis,
        [
          inboxKey(conversation),
          activeKey(conversation),
          seqKey(conversation),
          outboxStreamKey(space, to?.channel ?? '?', conversation),
        ],
        [head, conversation, to ? JSON.stringify(to) : '', MESSAGE_UNREADABLE, storedSeq(head)],
      )) as [number, string];
      if (dropped === 1) logger.error({ conversation }, 'unreadable inbox event dropped');
      head = next === '' ? null : next;
    }
    return null;
  }
  return {
    async accept(conversation, event) {
      const dedupe = keys.dedupe(conversation, event.channel, event.eventId);
      const res = await ingestEvent(
        redis,
        [
          dedupe,
          inboxKey(conversation),
          activeKey(conversation),
          seqKey(conversation),
          replySentKey(space, conversation),
          sessionIndexKey(space, conversation),
          drainJobKey(space, conversation),
        ],
        [
          DEDUPE_TTL_SECS,
          JSON.stringify(event),
          conversation,
          SEQUENCE_TTL_SECS,
          sessionIndexMember(event.agent, conversation),
          ...changeArgs(prefix, 'sessions', conversation),
        ],
      );
      const length = Number(res);
      // -1: the drain job that emptied the inbox is finishing; its completion re-kicks (turn-worker.ts).
      return length === 0 ? 'duplicate' : length === 1 ? 'first' : 'queued';
    },
    async head(conversation) {
      return readable(conversation, await redis.lindex(inboxKey(conversation), 0));
    },
    async settle(conversation, event, turn) {
      const history = turn.history ?? { agent: '', sessionKey: '', messages: [] };
      // The turn's session is its conversation (turn-worker.ts); a failed turn adds no history, and its unused
      // history keys are named under the conversation all the same.
      const session = history.sessionKey || conversation;
      const [, next] = (await settleTurn(
        redis,
        [
          inboxKey(conversation),
          activeKey(conversation),
          replyIdempotencyKey(space, conversation, turn.turnId),
          outboxStreamKey(space, turn.to.channel, conversation),
          runningTurnsKey(space, conversation),
          ...historyKeys(space, history.agent, session),
          sessionIndexKey(space, session),
          liveTurnKey(space, conversation, turn.turnId),
          turnFilesKey(space, conversation, turn.turnId),
        ],
        [
          event.eventId,
          conversation,
          REPLY_IDEMPOTENCY_TTL_SECS,
          ...outboxEntryArgs({
            to: turn.to,
            text: turn.text,
            order: { conversation, seq: event.seq },
          }),
          turn.turnId,
          HISTORY_TTL_SECS,
          historyMaxStored,
          sessionIndexMember(history.agent, history.sessionKey),
          ...changeArgs(prefix, 'sessions', conversation),
          turn.runId ?? '',
          ...history.messages.map((m) => JSON.stringify(m)),
        ],
      )) as [number, string];
      return readable(conversation, next === '' ? null : next);
    },
    pending: (conversation) => redis.llen(inboxKey(conversation)),
    async needsKick(conversation) {
      // One round trip: both leave in the same auto-pipelined write.
      const [waiting, job] = await Promise.all([
        redis.llen(inboxKey(conversation)),
        redis.exists(drainJobKey(space, conversation)),
      ]);
      return waiting > 0 && job === 0;
    },
    async activeConversations() {
      const sets = await Promise.all(
        allPartitions(space).map((n) => redis.smembers(inboxActiveKey(space, n))),
      );
      return sets.flat();
    },
  };
}
