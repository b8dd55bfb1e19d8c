// Runs turns: a drain job takes its conversation's events in arrival order, one turn at a time.

import type { Job } from 'bullmq';
import { outboundRedactor } from '../agent/outbound-redact.ts';
import { runTurn, type TurnSession } from '../agent/run-turn.ts';
import type { TurnAttachments } from '../agent/turn-attachments.ts';
import { turnFailureReply } from '../agent/turn-failure.ts';
import { EMPTY_ANSWER, NEW_SESSION_STARTED, TURN_ABORTED } from '../channel-host/channel-messages.ts';
import { parseChatCommand } from '../channel-host/commands.ts';
import type { Recipient } from '../channel-host/types.ts';
import { channelOf, riskProfileFor } from '../config/lookup.ts';
import { errorMessage } from '../core/errors.ts';
import { allPartitions, type KeySpace } from '../core/key-layout.ts';
import type { RedisTarget } from '../core/redis-target.ts';
import type { AbortBus } from '../fleet/abort-bus.ts';
import type { RunningTurns } from '../fleet/running-turns.ts';
import type { TypingSignals } from '../fleet/typing-signals.ts';
import { startTurnPresenter, type TurnPresenter } from '../live/turn-presenter.ts';
import { DEFAULT_MAX_ATTACHMENT_MB, uploadLimitBytes } from '../media/attachment.ts';
import { turnServices } from '../run-contract/live-services.ts';
import type { RuntimeServices } from '../run-contract/run-context.ts';
import { closeWorker } from './close-worker.ts';
import { workerOptions } from './connection.ts';
import {
  type ConversationInbox,
  type QueuedMessage,
  type SettledTurn,
  turnIdOf,
} from './conversation-inbox.ts';
import { GatedWorker, SlotGate } from './gated-worker.ts';
import type { IdleHints } from './idle-hints.ts';
import { createLiveShows } from './live-shows.ts';
import { TURNS_QUEUE, turnsQueuePrefix } from './names.ts';
import { createTurnBeginner, type OpenTurn } from './turn-begin.ts';
import { createTurnFiles } from './turn-files.ts';
import type { DrainJobData, TurnQueue } from './turn-queue.ts';

export interface TurnWorkerOptions {
  services: RuntimeServices;
  inbox: ConversationInbox;
  turns: TurnQueue;
  abortBus: AbortBus;
  running: RunningTurns;
  /** Writes a message's files into the workspace and describes them (media.md §1). */
  attachments: TurnAttachments;
  /** The typing indicator while a turn runs; absent: none. */
  typing?: TypingSignals;
  /** The platform's upload limit of a channel (its dialect's), for send_file; absent: none beyond the config's. */
  platformUploadBytes?: (channelKey: string) => number;
  redisTarget: RedisTarget;
  /** The prefix and partitions: one BullMQ worker per partition's turns queue. */
  space: KeySpace;
  /** Turns this process runs at once, over all partitions. */
  concurrency: number;
  /** Events one job drains before yielding to other conversations. */
  maxEventsPerJob?: number;
  /** BullMQ lock settings: how fast a crashed worker's conversation is picked up elsewhere. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** Where a finished drain job that left its conversation idle is noted, for a gateway in this process. */
  idleHints?: IdleHints;
}

export interface TurnWorker {
  /** Stops taking work; running turns get `graceMs` to finish, then are aborted and handed back. */
  close(graceMs: number): Promise<void>;
}

/**
 * The turn's reply, or null when the turn was handed back to the queue at shutdown. `landed`: the turn's last
 * writes (its cost record), joined with the settle so they share its round trip.
 */
type Outcome = (SettledTurn & { landed?: Promise<void> }) | null;

/**
 * A drain job's lock (renewed at half this period while its worker lives). When a worker dies, its
 * conversations move to another worker within about 1.5 × this, so keep it short.
 */
const DEFAULT_LOCK_MS = 10_000;

export function startTurnWorker(opts: TurnWorkerOptions): TurnWorker {
  const { services, inbox, logger } = { ...opts, logger: opts.services.logger };
  const maxEvents = opts.maxEventsPerJob ?? 20;
  const redact = outboundRedactor(services);
  const active = new Set<AbortController>();
  let closing = false; // stop starting new events
  let aborting = false; // grace is over: running turns are handed back
  const beginner = createTurnBeginner({ ...opts, active });

  async function runEvent(
    conversation: string,
    event: QueuedMessage,
    session?: Promise<TurnSession>,
    opened?: OpenTurn,
  ): Promise<Outcome> {
    // This turn's config: a reload from now on reaches the next turn, not this one.
    const services = turnServices(opts.services);
    const turnId = turnIdOf(event);
    const origin: Recipient = {
      channel: event.channel,
      chat: event.chat,
      ...(event.thread ? { thread: event.thread } : {}),
    };
    const turn = opened ?? beginner.open(conversation);
    const { controller, runId } = turn;
    // Marked after the abort registration, so an abort that finds the mark always reaches this turn (the settle
    // of the turn before may have marked it already). Not awaited before the turn starts: the abort API may see
    // the turn a moment late, the user sees it sooner.
    const marked = turn.marked
      ? undefined
      : opts.running
          .markRunning(conversation, turnId, services.workerId, runId)
          .catch((err: unknown) =>
            logger.warn({ err: errorMessage(err) }, 'could not mark the turn running'),
          );
    let text = '';
    let history: SettledTurn['history'];
    let landed: Promise<void> | undefined;
    let handedBack = false;
    const stopTyping = opts.typing?.whileRunning(origin);
    const live = presentTurn(services, origin, turnId, runId);
    // A channel root turn asks its own chat, or its profile's route (approvals.md §5).
    const asker = services.approvals.askerFor({
      agent: event.agent,
      runId,
      rootRunId: runId,
      origin: { ...origin, group: !event.isDirect },
      route: riskProfileFor(services.config, event.agent)?.approval_route,
      requester: { channel: event.channel, user: event.sender.id },
    });
    try {
      const input = event.attachments?.length
        ? await opts.attachments.userMessage(event, conversation, services.config, controller.signal)
        : { text: event.text, images: [] };
      const res = await runTurn(services, {
        agentAlias: event.agent,
        sessionKey: conversation,
        sender: `${event.channel}:${event.sender.id}`,
        message: input.text,
        ...(input.images.length ? { images: input.images } : {}),
        turnId,
        origin,
        asker,
        runId,
        signal: controller.signal,
        deferHistory: true,
        ...(session ? { session } : {}),
        files: createTurnFiles({
          redis: services.redis,
          prefix: opts.space.prefix,
          space: opts.space,
          conversation,
          turnId,
          runId,
          to: origin,
          limitBytes: uploadLimitBytes(
            opts.platformUploadBytes?.(origin.channel) ?? Number.POSITIVE_INFINITY,
            channelOf(services.config, origin.channel)?.max_attachment_mb ?? DEFAULT_MAX_ATTACHMENT_MB,
          ),
        }),
      });
      text = res.text.trim() ? res.text : EMPTY_ANSWER;
      if (res.history)
        history = { agent: event.agent, sessionKey: conversation, messages: res.history.messages };
      landed = res.landed;
    } catch (err) {
      handedBack = controller.signal.aborted && aborting;
      text = controller.signal.aborted ? TURN_ABORTED : turnFailureReply(err);
      if (!controller.signal.aborted) logger.warn({ err: errorMessage(err), conversation }, 'turn failed');
    } finally {
      stopTyping?.();
      turn.close();
    }
    await live?.finish();
    await marked;
    // The settle commits history and reply, and clears the running mark.
    // Last line of defence: no known secret value reaches the chat, whatever the model or an error wrote.
    if (!handedBack) {
      return { to: origin, text: redact(text), turnId, runId, ...(history ? { history } : {}), landed };
    }
    await opts.running.markDone(conversation, turnId);
    return null;
  }

  /** The turn's live view in its chat (live.md §2, §3), unless the channel has both turned off. */
  function presentTurn(
    services: RuntimeServices,
    origin: Recipient,
    turnId: string,
    runId: string,
  ): TurnPresenter | null {
    const channel = channelOf(services.config, origin.channel);
    if (!channel || (channel.streaming === 'off' && channel.progress === 'off')) return null;
    return startTurnPresenter({
      root: runId,
      origin,
      settings: {
        streaming: channel.streaming,
        streamAfterMs: channel.stream_after_ms,
        intervalMs: channel.stream_edit_interval_ms,
        progress: channel.progress,
        progressAfterMs: channel.progress_after_ms,
      },
      output: createLiveShows({
        redis: services.redis,
        space: opts.space,
        to: origin,
        turnId,
        root: runId,
        redact,
        gapMs: channel.stream_edit_interval_ms,
      }),
      events: services.events,
      logger,
    });
  }

  /**
   * `/new` reaches the worker in its place in the inbox, so no turn of this conversation runs meanwhile: the
   * messages before it are answered in the old session, the ones after it in the fresh one. Clearing twice
   * (a redelivered head) is harmless.
   */
  async function startFreshSession(conversation: string, event: QueuedMessage): Promise<SettledTurn> {
    await services.history.clear(event.agent, conversation);
    const to: Recipient = {
      channel: event.channel,
      chat: event.chat,
      ...(event.thread ? { thread: event.thread } : {}),
    };
    return { to, text: NEW_SESSION_STARTED, turnId: turnIdOf(event) };
  }

  /** `drained`: the job ends because its inbox was empty at its last settle (not handed back, not yielding). */
  async function drain(job: Job<DrainJobData>): Promise<'drained' | undefined> {
    const { conversation, agent } = job.data;
    // The head, its running mark and its history in one script when the kick named the agent (turn-begin.ts).
    let { event, opened, behind } = agent
      ? await beginner.first(conversation, agent)
      : { event: await inbox.head(conversation), opened: undefined, behind: false };
    try {
      for (let n = 0; event && n < maxEvents && !closing; n++) {
        const turn = opened;
        opened = undefined;
        let reply: Outcome;
        if (parseChatCommand(event) === 'new') {
          turn?.close(); // its running mark goes with the settle below (same turn id)
          reply = await startFreshSession(conversation, event);
        } else reply = await runEvent(conversation, event, turn?.session, turn);
        if (!reply) return undefined;
        // History, reply and the event's removal in one step: exactly one reply per event, in order. The same
        // step begins the next head's turn, unless this job stops after this event.
        if (n + 1 >= maxEvents || closing)
          [event] = await Promise.all([inbox.settle(conversation, event, reply), reply.landed]);
        else
          [{ event, opened, behind }] = await Promise.all([
            beginner.settle(conversation, event, reply, behind),
            reply.landed,
          ]);
      }
      if (event) return undefined;
      // Noted before BullMQ removes the job: the next message usually arrives after the removal (its reply
      // left with the settle), and its early kick then saves a round trip. One arriving sooner meets the job
      // (-1: the add is dropped, the completion re-kicks it), which costs a wasted add, nothing more.
      opts.idleHints?.noteIdle(conversation);
      return 'drained';
    } finally {
      // A next turn begun here but not run (shutdown, the job's share used up): its mark must not stay.
      if (opened) {
        opened.close();
        if (opened.marked && event)
          await opts.running.markDone(conversation, turnIdOf(event)).catch(() => {});
      }
    }
  }

  const lockDuration = opts.lockDurationMs ?? DEFAULT_LOCK_MS;
  // One worker per partition; `concurrency` caps the process's running turns over all of them (gated-worker.ts).
  const gate = new SlotGate(opts.concurrency);
  const workers = allPartitions(opts.space).map(
    (n) =>
      new GatedWorker<DrainJobData>(
        TURNS_QUEUE,
        drain,
        {
          ...workerOptions(opts.redisTarget, turnsQueuePrefix(opts.space, n), opts.concurrency),
          lockDuration,
          stalledInterval: opts.stalledIntervalMs ?? Math.max(500, Math.floor(lockDuration / 2)),
          // A drain job whose worker died is handed to another worker: the event is still at the inbox head.
          maxStalledCount: 1000,
        },
        gate,
      ),
  );
  // Kicks under way: close waits for them, so a turn handed back at shutdown is picked up at once elsewhere
  // (not at the next sweep) before the queue client closes.
  const rekicks = new Set<Promise<void>>();
  const rekickIfPending = (conversation: string, drained: boolean, onError: (err: unknown) => void) => {
    const kick = (async () => {
      // The finished job is already removed: a job that exists now was kicked since, and reaches the events.
      // Naming the head's agent lets the drain begin the turn in its first script (turn-begin.ts).
      const due = await inbox.needsKick(conversation, drained);
      if (due === 'idle') opts.idleHints?.noteIdle(conversation);
      else if (due) await opts.turns.kick(conversation, due.agent);
    })()
      .catch(onError)
      .finally(() => rekicks.delete(kick));
    rekicks.add(kick);
  };
  for (const worker of workers) {
    worker.on('completed', (job, result) => {
      rekickIfPending(job.data.conversation, result === 'drained', (err) =>
        logger.warn({ err: errorMessage(err) }, 'rekick failed'),
      );
    });
    worker.on('failed', (job, err) => {
      logger.warn({ err: err.message }, 'drain job failed');
      if (job) rekickIfPending(job.data.conversation, false, () => {});
    });
    worker.on('error', (err) => logger.warn({ err: err.message }, 'turn worker error'));
  }

  return {
    async close(graceMs) {
      closing = true;
      const closed = Promise.all(workers.map((w) => closeWorker(w, graceMs + 5000)));
      const timer = setTimeout(() => {
        aborting = true;
        for (const c of active) c.abort(new Error('worker shutting down'));
      }, graceMs);
      await closed;
      clearTimeout(timer);
      await Promise.all([...rekicks]);
    },
  };
}
