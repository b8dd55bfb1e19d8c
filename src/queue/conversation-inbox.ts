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
import {
  HISTORY_MAX_STORED,
  HISTORY_TTL_SECS,
  historyFromEntries,
  historyKeys,
} from '../session/history-store.ts';
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

const ingestEvent = loadRedisScript(join(import.meta.dirname, 'lua', 'ingest-event-8.lua'));
const dropUnreadableHead = loadRedisScript(join(import.meta.dirname, 'lua', 'drop-unreadable-head-4.lua'));
const settleTurn = loadRedisScript(join(import.meta.dirname, 'lua', 'settle-turn-11.lua'));
const beginDrain = loadRedisScript(join(import.meta.dirname, 'lua', 'begin-drain-3.lua'));

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
  /**
   * `onReordered`: told when the ingest had to go again (its script was not cached), so commands the caller
   * sent right behind it ran first.
   */
  accept(
    conversation: string,
    event: Omit<QueuedMessage, 'seq'>,
    onReordered?: () => void,
  ): Promise<AcceptResult>;
  head(conversation: string): Promise<QueuedMessage | null>;
  /** The head, and in the same script its turn's running mark and history, as `settleAndBegin` does. */
  begin(conversation: string, next: NextTurnStart): Promise<SettledAndBegun>;
  /**
   * Appends the turn's history, queues its reply, drops the head if it is `event` and clears its running
   * mark, in one step; returns the next head, if any.
   */
  settle(conversation: string, event: QueuedMessage, turn: SettledTurn): Promise<QueuedMessage | null>;
  /**
   * `settle`, and in the same script the next head's running mark (run `next.runId` on `next.workerId`) and,
   * when the head is `next.agent`'s, its history: the next turn needs no round trip before it starts.
   */
  settleAndBegin(
    conversation: string,
    event: QueuedMessage,
    turn: SettledTurn,
    next: NextTurnStart,
  ): Promise<SettledAndBegun>;
  pending(conversation: string): Promise<number>;
  /**
   * Events are waiting and no drain job exists for them (one that exists reaches them or re-kicks): the head's
   * agent as stored (a hint for the kick: the drain's first script compares it); `idle` when nothing waits;
   * null when a job exists for what waits. `drained`: asked by a job that finished with its inbox empty, so
   * what waits arrived after its last settle, and only an event accepted while it was finishing (the owed
   * mark) is its to kick: the others were accepted as `first`, and the gateway kicks them.
   */
  needsKick(conversation: string, drained?: boolean): Promise<{ agent: string | undefined } | 'idle' | null>;
  /** Conversations that have events waiting (for the sweeper). */
  activeConversations(): Promise<string[]>;
}

/** What the worker asks the settle to prepare for the conversation's next turn. */
export interface NextTurnStart {
  runId: string;
  workerId: string;
  /** The agent whose history is read for the next turn (its session is the conversation). */
  agent: string;
  /** How many of its last entries (max_history_messages). */
  historyLimit: number;
}

export interface SettledAndBegun {
  next: QueuedMessage | null;
  /** Events in the inbox when the script ran, `next`'s included. */
  left: number;
  /**
   * The turn id whose running mark the settle set (the next head's, when it could read it), and the history it
   * read for that turn (absent: the head is another agent's). `next` may differ from it when the head read was
   * unreadable and dropped: the worker then clears that mark.
   */
  begun?: { turnId: string; history?: ChatMessage[] };
}

// Asked several times per turn (accept, settle, re-kick); a bounded memo spares the digest.
const jobIds = new Map<string, string>();
const MAX_MEMO_JOB_IDS = 10_000;

/** BullMQ job ids may not contain ':'; conversation ids do, so jobs use a digest. */
export function conversationJobId(conversation: string): string {
  let id = jobIds.get(conversation);
  if (id === undefined) {
    id = `conv-${createHash('sha1').update(conversation).digest('hex')}`;
    if (jobIds.size >= MAX_MEMO_JOB_IDS) jobIds.clear();
    jobIds.set(conversation, id);
  }
  return id;
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
  async function settleTurnAt(
    conversation: string,
    event: QueuedMessage,
    turn: SettledTurn,
    next?: NextTurnStart,
  ): Promise<SettledAndBegun> {
    const history = turn.history ?? { agent: '', sessionKey: '', messages: [] };
    // The turn's session is its conversation (turn-worker.ts); a failed turn adds no history, and its unused
    // history keys are named under the conversation all the same.
    const session = history.sessionKey || conversation;
    const nextList = historyKeys(space, next?.agent ?? history.agent, conversation)[0];
    const [left, head, begunTurn, entries] = (await settleTurn(
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
        nextList,
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
        next?.runId ?? '',
        next?.workerId ?? '',
        next?.agent ?? '',
        next?.historyLimit ?? 0,
        ...history.messages.map((m) => JSON.stringify(m)),
      ],
    )) as [number, string, string?, string[]?];
    return begunWith(conversation, Number(left), head, begunTurn, entries, nextList);
  }

  async function begunWith(
    conversation: string,
    left: number,
    head: string,
    turnId: string | undefined,
    entries: string[] | null | undefined,
    list: string,
  ): Promise<SettledAndBegun> {
    const next = await readable(conversation, head === '' ? null : head);
    if (!turnId) return { next, left };
    return {
      next,
      left,
      begun: { turnId, ...(entries ? { history: historyFromEntries(entries, logger, list) } : {}) },
    };
  }
  return {
    async accept(conversation, event, onReordered) {
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
          keys.kickOwed(conversation),
        ],
        [
          DEDUPE_TTL_SECS,
          JSON.stringify(event),
          conversation,
          SEQUENCE_TTL_SECS,
          sessionIndexMember(event.agent, conversation),
          ...changeArgs(prefix, 'sessions', conversation),
        ],
        onReordered,
      );
      const length = Number(res);
      // -1: the drain job that emptied the inbox is finishing; its completion re-kicks (turn-worker.ts).
      return length === 0 ? 'duplicate' : length === 1 ? 'first' : 'queued';
    },
    async head(conversation) {
      return readable(conversation, await redis.lindex(inboxKey(conversation), 0));
    },
    async begin(conversation, next) {
      const list = historyKeys(space, next.agent, conversation)[0];
      const [left, head, turnId, entries] = (await beginDrain(
        redis,
        [inboxKey(conversation), runningTurnsKey(space, conversation), list],
        [
          conversation,
          next.runId,
          next.workerId,
          next.agent,
          next.historyLimit,
          ...changeArgs(prefix, 'sessions', conversation),
        ],
      )) as [number, string, string, string[] | null | undefined];
      return begunWith(conversation, left, head, turnId, entries, list);
    },
    async settle(conversation, event, turn) {
      return (await settleTurnAt(conversation, event, turn)).next;
    },
    settleAndBegin: (conversation, event, turn, next) => settleTurnAt(conversation, event, turn, next),
    pending: (conversation) => redis.llen(inboxKey(conversation)),
    async needsKick(conversation, drained = false) {
      // One round trip: all three leave in the same write.
      const [head, job, owed] = await Promise.all([
        redis.lindex(inboxKey(conversation), 0),
        redis.exists(drainJobKey(space, conversation)),
        redis.del(keys.kickOwed(conversation)),
      ]);
      if (head === null) return 'idle';
      if (job !== 0 || (drained && owed === 0)) return null;
      return { agent: storedAgent(head) };
    },
    async activeConversations() {
      const sets = await Promise.all(
        allPartitions(space).map((n) => redis.smembers(inboxActiveKey(space, n))),
      );
      return sets.flat();
    },
  };
}

/** The `agent` of a stored event, unchecked beyond its type: only a hint, the head itself is read and checked later. */
function storedAgent(raw: string): string | undefined {
  try {
    const agent = (JSON.parse(raw) as { agent?: unknown } | null)?.agent;
    return typeof agent === 'string' ? agent : undefined;
  } catch {
    return undefined;
  }
}
