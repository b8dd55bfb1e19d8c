// `/stop` and `/status` in the gateway: answered at once through the channel's outbox, never behind a turn.
import type { Redis } from 'ioredis';
import {
  COMMAND_FAILED,
  STOP_NOTHING_RUNNING,
  STOP_REQUESTED,
  statusText,
} from '../channel-host/channel-messages.ts';
import type { ChatCommandHandler } from '../channel-host/commands.ts';
import type { OutboxWriter, Recipient } from '../channel-host/types.ts';
import { agentOf, providerOf } from '../config/lookup.ts';
import type { BatonConfig } from '../config/types.ts';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { createTaskList } from '../delegation/task-list.ts';
import type { AbortBus } from '../fleet/abort-bus.ts';
import { createRunningTurns } from '../fleet/running-turns.ts';
import { createSessionAbort } from '../fleet/session-abort.ts';
import { keySpaceOf } from '../queue/names.ts';
import { createSessionModelStore, sessionProviderRef } from '../session/session-model.ts';

export interface ChatCommandDeps {
  /** The config in effect now (after a reload, the reloaded one): read at each command. */
  config: () => BatonConfig;
  redis: Redis;
  logger: Logger;
  abortBus: AbortBus;
  /** The outbox the reply goes to (a command reply has no place in the conversation's reply order). */
  outbox: OutboxWriter;
}

export function createChatCommands(d: ChatCommandDeps): ChatCommandHandler {
  const prefix = d.config().redis.prefix; // restart-only: a reload keeps the running prefix
  const running = createRunningTurns(d.redis, keySpaceOf(d.config().redis), d.logger);
  const abort = createSessionAbort(running, d.abortBus);
  const tasks = createTaskList(d.redis, prefix);
  const models = createSessionModelStore(d.redis, prefix);

  async function status(conversation: string, agent: string, sender: string): Promise<string> {
    const scope = { agent_alias: agent, session_key: conversation };
    const config = d.config();
    const [turn, stored, listed] = await Promise.all([
      running.get(conversation),
      models.get(agent, conversation),
      tasks.list({ status: 'running' }),
    ]);
    const ref = sessionProviderRef(
      config,
      stored,
      agentOf(config, agent)?.model_provider ?? '',
      d.logger,
      scope,
    );
    const model = providerOf(config, ref)?.model;
    // Task records name the asking sender (`<channel>:<user>`), not the chat: this chat's user's tasks.
    const mine = listed.filter((t) => t.sender === sender);
    return statusText({
      agent,
      model: model ? `${ref} (${model})` : ref,
      turnRunning: turn !== null,
      tasks: mine.map((t) => ({ agent: t.agent, elapsedSecs: t.elapsed_secs })),
    });
  }

  return {
    async run(command, { conversation, agent, event }) {
      const to: Recipient = {
        channel: event.channel,
        chat: event.chat,
        ...(event.thread ? { thread: event.thread } : {}),
      };
      let text: string;
      try {
        if (command === 'stop')
          text = (await abort(conversation)).aborted ? STOP_REQUESTED : STOP_NOTHING_RUNNING;
        else text = await status(conversation, agent, `${event.channel}:${event.sender.id}`);
      } catch (err) {
        d.logger.warn({ err: errorMessage(err), command, conversation }, 'chat command failed');
        text = COMMAND_FAILED;
      }
      // Keyed by the platform event: a redelivered command is answered once.
      await d.outbox.enqueue(to, { text }, `command:${event.channel}:${event.eventId}`);
    },
  };
}
