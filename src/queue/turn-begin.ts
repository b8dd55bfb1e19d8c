// A conversation's next turn begins in the script that reads its event (the drain job's first read, or the
// settle of the turn before): its running mark and its history come with the event, no round trip of its own.
import { historyMessageLimit } from '../agent/context-budget.ts';
import type { TurnSession } from '../agent/run-turn.ts';
import { runtimeProfileFor } from '../config/lookup.ts';
import { newRunId } from '../core/ids.ts';
import type { AbortBus } from '../fleet/abort-bus.ts';
import type { RunningTurns } from '../fleet/running-turns.ts';
import type { RuntimeServices } from '../run-contract/run-context.ts';
import {
  type ConversationInbox,
  type QueuedMessage,
  type SettledAndBegun,
  type SettledTurn,
  turnIdOf,
} from './conversation-inbox.ts';

/** A turn's abort, registered before its running mark is written (so an abort that finds the mark reaches it). */
export interface OpenTurn {
  runId: string;
  controller: AbortController;
  close(): void;
  /** The script that read its event wrote its running mark. */
  marked?: boolean;
  /** Its session (switched model and history), when the script read the history. */
  session?: Promise<TurnSession>;
}

/** The event read, and the turn opened for it (absent: none could be). */
export interface Begun {
  event: QueuedMessage | null;
  opened?: OpenTurn;
  /** Other events wait behind it: the settle of its turn surely begins another. */
  behind: boolean;
}

export interface TurnBeginner {
  /** Registers a turn's abort; `close` unregisters it. */
  open(conversation: string): OpenTurn;
  /** The drain job's first read: the head, begun as `agent`'s turn. */
  first(conversation: string, agent: string): Promise<Begun>;
  /**
   * Settles `event` with `reply` and begins the next head in the same script; `behind`: events waited behind
   * `event` when it was read (the next turn's session model is then read in the same write).
   */
  settle(conversation: string, event: QueuedMessage, reply: SettledTurn, behind: boolean): Promise<Begun>;
}

export function createTurnBeginner(opts: {
  services: RuntimeServices;
  inbox: ConversationInbox;
  abortBus: AbortBus;
  running: RunningTurns;
  /** The controllers of the process's turns (aborted at the end of a shutdown's grace). */
  active: Set<AbortController>;
}): TurnBeginner {
  const { services, inbox } = opts;
  function open(conversation: string): OpenTurn {
    const controller = new AbortController();
    opts.active.add(controller);
    const runId = newRunId();
    const unregister = opts.abortBus.register('session', conversation, controller, runId);
    return {
      runId,
      controller,
      close() {
        unregister();
        opts.active.delete(controller);
      },
    };
  }
  const nextTurn = (agent: string, opened: OpenTurn) => ({
    runId: opened.runId,
    workerId: services.workerId,
    agent,
    historyLimit: historyMessageLimit(runtimeProfileFor(services.config, agent)),
  });
  // The session's switched model, read for the head's agent (after the turn before ended, so a model_switch it
  // made is seen): in the same write as the script when a next head is sure, else once the script found one.
  function switchedModel(agent: string, conversation: string) {
    const model = services.sessionModels.get(agent, conversation);
    model.catch(() => {}); // unused when the head is another agent's; a real failure shows in the turn
    return model;
  }
  /** `opened` becomes the turn of the event read when the script marked that event running. */
  async function begun(
    conversation: string,
    opened: OpenTurn,
    res: SettledAndBegun,
    model: Promise<string | null> | undefined,
  ): Promise<Begun> {
    const event = res.next;
    const behind = res.left > 1;
    if (!res.begun || !event || turnIdOf(event) !== res.begun.turnId) {
      // No mark set, or set for a head the inbox then dropped as unreadable: the next turn marks itself.
      if (res.begun) await opts.running.markDone(conversation, res.begun.turnId);
      return { event, opened, behind };
    }
    opened.marked = true;
    // Read only when the head is the agent's the script was given (it compares).
    const history = res.begun.history;
    if (history) {
      const read = model ?? switchedModel(event.agent, conversation);
      opened.session = read.then((switchedModel) => ({ switchedModel, history }));
    }
    return { event, opened, behind };
  }
  return {
    open,
    async first(conversation, agent) {
      const opened = open(conversation);
      const model = switchedModel(agent, conversation);
      return begun(conversation, opened, await inbox.begin(conversation, nextTurn(agent, opened)), model);
    },
    async settle(conversation, event, reply, behind) {
      const opened = open(conversation);
      const model = behind ? switchedModel(event.agent, conversation) : undefined;
      const res = await inbox.settleAndBegin(conversation, event, reply, nextTurn(event.agent, opened));
      return begun(conversation, opened, res, model);
    },
  };
}
