// ChannelHost: validates an inbound event, applies mention_only, routing and peer authorisation, then enqueues it.
import { channelOf, ownEntry } from '../config/lookup.ts';
import type { BatonConfig } from '../config/types.ts';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { admissionFor, admissionToml } from './admission.ts';
import type { AttachmentIntake } from './attachment-intake.ts';
import { refusedSenderLog } from './channel-messages.ts';
import { type ChatCommandHandler, parseChatCommand } from './commands.ts';
import { isAuthorised } from './peer-authz.ts';
import { routeAgent } from './routing.ts';
import {
  type ActionHandler,
  type ChannelHost,
  conversationId,
  type InboundAction,
  type InboundMessage,
  inboundEventSchema,
  type ReceiveResult,
} from './types.ts';
import { wellFormed } from './well-formed.ts';

/** Where accepted messages go: the conversation inbox plus a drain job (implemented in src/queue). */
export interface TurnIngest {
  /**
   * `first` when the conversation had nothing waiting (it needs a kick), `kicked` when it had nothing waiting and
   * its drain job was already sent behind the event, `queued` behind others, or `duplicate`.
   */
  accept(
    conversation: string,
    message: InboundMessage & { agent: string },
  ): Promise<'first' | 'kicked' | 'queued' | 'duplicate'>;
  /** `agent`: who the conversation's first event is for, so the worker can read its session early. */
  kick(conversation: string, agent?: string): Promise<void>;
}

export interface ChannelHostOptions {
  config: BatonConfig;
  /** The config in effect now, read per event (a reload changes routing and peers); default: `config`. */
  currentConfig?: () => BatonConfig;
  ingest: TurnIngest;
  logger: Logger;
  /** Agent per channel key for channels that are not in the config (the local test channel). */
  routes?: Record<string, string>;
  /** Fetches and stores a message's files before it is queued (media.md §1); absent: they arrive as not downloaded. */
  attachments?: AttachmentIntake;
  /** Button presses; without a handler they are logged and dropped. */
  actions?: ActionHandler;
  /** `/stop` and `/status`, answered at once (absent: they are ordinary messages). `/new` goes through the inbox. */
  commands?: ChatCommandHandler;
  /**
   * The fleet's record of refused senders (src/fleet/refused-senders.ts): the dashboard lists them, and a refusal
   * is logged once per sender and channel. Absent: every refusal is logged.
   */
  refused?: RefusedSenderLog;
}

/** What the host needs of the refused-senders store: note one refusal, true when it is the first to log. */
export interface RefusedSenderLog {
  note(rec: {
    channel: string;
    agent: string;
    user_id: string;
    username: string | null;
    chat: string;
    is_direct: boolean;
  }): Promise<boolean>;
}

export function createChannelHost(opts: ChannelHostOptions): ChannelHost {
  const { ingest, logger } = opts;
  async function forwardAction(action: InboundAction): Promise<ReceiveResult> {
    const conversation = conversationId(action.channel, action.chat, action.thread);
    if (!opts.actions) {
      logger.debug(
        { channel: action.channel, action_id: action.actionId },
        'button press with no handler dropped',
      );
      return { accepted: false, reason: 'unhandled' };
    }
    const res = await opts.actions.handle(action);
    return { accepted: true, conversation, ...(res?.notice ? { notice: res.notice } : {}) };
  }
  /**
   * No answer in the chat (a stranger learns nothing); the operator gets one warn line per sender and channel
   * with the exact entry that admits them, and the dashboard's list of refused senders.
   */
  async function refuse(config: BatonConfig, event: InboundMessage, agent: string): Promise<void> {
    const who = { channel: event.channel, user_id: event.sender.id, agent };
    let first = true;
    try {
      first = opts.refused
        ? await opts.refused.note({
            ...who,
            username: event.sender.username ?? null,
            chat: event.chat,
            is_direct: event.isDirect,
          })
        : true;
    } catch (err) {
      logger.debug({ ...who, err: errorMessage(err) }, 'refused sender not recorded');
    }
    if (!first) {
      logger.debug(who, 'inbound message from unauthorised peer (already logged)');
      return;
    }
    const admission = admissionFor(config, event.channel, agent, event.sender.id);
    logger.warn(
      {
        ...who,
        ...(event.sender.username ? { username: event.sender.username } : {}),
        peer_groups_entry: admissionToml(admission),
      },
      refusedSenderLog(event.channel, agent, event.sender, admission.group, admission.exists),
    );
  }
  return {
    async receive(raw): Promise<ReceiveResult> {
      const parsed = inboundEventSchema.safeParse(raw);
      if (!parsed.success) {
        const detail = parsed.error.issues
          .map((i) => `${i.path.join('.') || '(event)'}: ${i.message}`)
          .join('; ');
        logger.warn({ detail }, 'inbound event rejected: invalid');
        return { accepted: false, reason: 'invalid', detail };
      }
      // Every string (text, usernames, ids, button data) well-formed before any of it is stored or forwarded.
      const event = wellFormed(parsed.data);
      if (event.kind === 'action') return forwardAction(event);
      // An approval answer is checked against the approval's own rules (§11), never a turn's.
      if (opts.actions?.reply && (await opts.actions.reply(event))) {
        return { accepted: true, conversation: conversationId(event.channel, event.chat, event.thread) };
      }
      const config = opts.currentConfig?.() ?? opts.config;
      const channelCfg = channelOf(config, event.channel);
      if (channelCfg?.mention_only && !event.isDirect && !event.addressedToBot) {
        return { accepted: false, reason: 'not_addressed' };
      }
      const agent =
        (opts.routes && ownEntry(opts.routes, event.channel)) ?? routeAgent(config, event.channel);
      if (!agent) return { accepted: false, reason: 'no_agent' };
      if (!isAuthorised(config, event.channel, agent, event.sender)) {
        await refuse(config, event, agent);
        return { accepted: false, reason: 'unauthorised' };
      }
      const conversation = conversationId(event.channel, event.chat, event.thread);
      // After authorisation (an unauthorised `/stop` does nothing), before the inbox (it would wait behind the turn).
      const command = opts.commands ? parseChatCommand(event) : null;
      if (opts.commands && (command === 'stop' || command === 'status')) {
        await opts.commands.run(command, { conversation, agent, event });
        return { accepted: true, conversation };
      }
      const stored =
        event.attachments?.length && opts.attachments ? await opts.attachments.store(event) : event;
      const accepted = await ingest.accept(conversation, { ...stored, agent });
      if (accepted === 'duplicate') return { accepted: false, reason: 'duplicate' };
      // Behind other events, the drain job in charge of the conversation reaches this one (or the sweeper does).
      if (accepted === 'first') await ingest.kick(conversation, agent);
      return { accepted: true, conversation };
    },
  };
}
