// The Discord channel on discord.js v14: gateway in (messages, button presses), REST out (send, edit, typing,
// files); attachments are downloaded from Discord's CDN (files.ts).

import { once } from 'node:events';
import {
  type APIMessage,
  Client,
  Events,
  GatewayIntentBits,
  type Interaction,
  type Message,
  MessageFlags,
  Options,
  Partials,
  type RateLimitData,
  Routes,
} from 'discord.js';
import { receiveWithRetry } from '../../src/channel-host/receive-retry.ts';
import type {
  ChannelAdapter,
  ChannelHost,
  InboundEvent,
  MessageRef,
  OutboundMessage,
  ReceiveResult,
  Recipient,
} from '../../src/channel-host/types.ts';
import { errorMessage } from '../../src/core/errors.ts';
import type { Logger } from '../../src/core/logger.ts';
import type { RedisTarget } from '../../src/core/redis-target.ts';
import type { OutboundFile } from '../../src/media/attachment.ts';
import { type CatchUp, createCatchUp } from './catch-up.ts';
import { restCall, toComponents } from './components.ts';
import { discordDialect } from './dialect.ts';
import { cdnDownloader, DISCORD_MAX_UPLOAD_BYTES, fileMessage } from './files.ts';
import { type Filters, mapButton, mapMessage } from './inbound.ts';
import { createLastSeenStore } from './last-seen.ts';

/** Discord's limit for a message's content. */
export const DISCORD_MAX_MESSAGE_LENGTH = discordDialect.capabilities.maxMessageLength;

/**
 * Rate-limit waits discord.js may sit out itself; a longer one rejects (RateLimitError → ChannelRateLimitError) so
 * the reply pump pauses the channel instead of one send blocking with the chat's later replies behind it.
 */
export const LIBRARY_WAITS_UP_TO_MS = 1000;

export interface DiscordAdapterOptions {
  alias: string;
  botToken: string;
  /**
   * REST root (discord.js `rest.api`); the gateway URL comes from GET /gateway/bot under it. Attachment URLs on
   * its origin are downloaded like Discord's CDN ones (a test server serves both).
   */
  apiBaseUrl: string;
  guildIds?: string[];
  channelIds?: string[];
  logger: Logger;
  /**
   * Where the last message seen per channel is kept (Redis): on each new gateway session the messages posted since
   * are fetched and handed over. Absent: no catch-up (messages posted while no gateway held the channel are missed).
   */
  lastSeen?: { redisTarget: RedisTarget; prefix: string };
  /** The waits between hand-over attempts (default RECEIVE_RETRY_DELAYS_MS, about 30 s). */
  handOverRetryDelaysMs?: readonly number[];
  /** How soon a channel whose hand-over failed for good is caught up again (default 30 s). */
  catchUpRetryMs?: number;
}

const waitOf = (d: RateLimitData) => Math.max(d.retryAfter, d.timeToReset, d.sublimitTimeout);

/**
 * discord.js trusts the gateway: a malformed dispatch (say an INTERACTION_CREATE without `data`) throws inside its
 * packet handler, out of reach of any listener, and would end the process. Each packet is handled inside a guard.
 */
function guardPackets(c: Client, logger: Logger): void {
  const ws = c.ws as unknown as { handlePacket(packet?: unknown, shard?: unknown): boolean };
  const handle = ws.handlePacket.bind(ws);
  ws.handlePacket = (packet, shard) => {
    try {
      return handle(packet, shard);
    } catch (err) {
      const type = (packet as { t?: unknown } | undefined)?.t;
      logger.warn({ type, err: errorMessage(err) }, 'malformed discord dispatch skipped');
      return false;
    }
  };
}

export function createDiscordAdapter(opts: DiscordAdapterOptions): ChannelAdapter {
  const key = `discord.${opts.alias}`;
  const { logger } = opts;
  const filters: Filters = {
    guildIds: new Set(opts.guildIds ?? []),
    channelIds: new Set(opts.channelIds ?? []),
  };
  let client: Client | null = null;
  let host: ChannelHost | null = null;
  let catchUp: CatchUp | null = null;
  // Aborted on stop: a hand-over still retrying then gives up (logged as lost).
  let stopping = new AbortController();

  const live = (): Client => {
    if (!client) throw new Error(`discord channel ${key} is not started`);
    return client;
  };

  /** The host's answer, or null when the event was lost. */
  // The gateway has already delivered the event (no redelivery), so a failed hand-over is retried here.
  async function handOver(event: InboundEvent): Promise<ReceiveResult | null> {
    if (!host) return null;
    const result = await receiveWithRetry(host, event, {
      logger,
      signal: stopping.signal,
      ...(opts.handOverRetryDelaysMs ? { delaysMs: opts.handOverRetryDelaysMs } : {}),
    });
    if (result && !result.accepted) {
      logger.debug({ event_id: event.eventId, reason: result.reason }, 'discord event not taken');
    }
    return result;
  }

  function onMessage(message: Message, botId: string): void {
    const mapped = mapMessage(message, { key, botId, filters });
    if ('skip' in mapped) {
      logger.debug({ message_id: message.id, why: mapped.skip }, 'discord message skipped');
      return;
    }
    if (catchUp) catchUp.live(message, mapped.event);
    else void handOver(mapped.event);
  }

  async function onInteraction(interaction: Interaction): Promise<void> {
    if (!interaction.isButton()) {
      logger.debug({ interaction_id: interaction.id, type: interaction.type }, 'discord interaction skipped');
      return;
    }
    const mapped = mapButton(interaction, { key, filters });
    if ('skip' in mapped) {
      logger.debug({ interaction_id: interaction.id, why: mapped.skip }, 'discord button press skipped');
      return;
    }
    // Acknowledged first: Discord fails the press when nothing answers within 3 s, whatever the handler does.
    await interaction.deferUpdate().catch((err: unknown) => {
      logger.warn(
        { interaction_id: interaction.id, err: errorMessage(err) },
        'discord button press not acknowledged',
      );
    });
    const result = await handOver(mapped.event);
    const notice = result?.accepted ? result.notice : undefined;
    // Only the presser sees it: an ephemeral follow-up to the (already acknowledged) press.
    if (notice) {
      await interaction.followUp({ content: notice, flags: MessageFlags.Ephemeral }).catch((err: unknown) => {
        logger.warn(
          { interaction_id: interaction.id, err: errorMessage(err) },
          'discord press notice failed',
        );
      });
    }
  }

  function buildClient(): Client {
    const c = new Client({
      intents: [
        GatewayIntentBits.Guilds,
        GatewayIntentBits.GuildMessages,
        GatewayIntentBits.MessageContent,
        GatewayIntentBits.DirectMessages,
      ],
      // DM channels are not cached before their first message: without this partial, DMs never arrive.
      partials: [Partials.Channel],
      // No message cache: baton keeps no use for it, and redeliveries are deduped by baton's inbox (message id).
      makeCache: Options.cacheWithLimits({ ...Options.DefaultMakeCacheSettings, MessageManager: 0 }),
      rest: { api: opts.apiBaseUrl, rejectOnRateLimit: (d) => waitOf(d) > LIBRARY_WAITS_UP_TO_MS },
    });
    guardPackets(c, logger);
    c.on(Events.MessageCreate, (message) => {
      try {
        onMessage(message, c.user?.id ?? '');
      } catch (err) {
        logger.warn({ err: errorMessage(err) }, 'malformed discord message skipped');
      }
    });
    c.on(Events.InteractionCreate, (interaction) => {
      onInteraction(interaction).catch((err: unknown) => {
        logger.warn({ err: errorMessage(err) }, 'malformed discord interaction skipped');
      });
    });
    c.on(Events.MessageUpdate, (_old, message) => {
      logger.debug({ message_id: message.id }, 'discord message edit skipped');
    });
    c.on(Events.Error, (err) => logger.warn({ err: errorMessage(err) }, 'discord client error'));
    c.on(Events.ShardDisconnect, (event) =>
      logger.warn({ code: event.code }, 'discord gateway disconnected'),
    );
    // A new session (not a RESUME, which replays what was missed): fetch what was posted meanwhile.
    c.on(Events.ShardReady, () => catchUp?.connected());
    c.on(Events.ShardResume, (_id, replayed) => logger.info({ replayed }, 'discord gateway resumed'));
    c.rest.on('rateLimited', (d) =>
      logger.debug({ route: d.route, wait_ms: waitOf(d) }, 'discord rate limit'),
    );
    return c;
  }

  return {
    key,
    maxMessageLength: DISCORD_MAX_MESSAGE_LENGTH,
    maxUploadBytes: DISCORD_MAX_UPLOAD_BYTES,
    download: cdnDownloader(opts.apiBaseUrl),
    async start(h) {
      if (client) throw new Error(`discord channel ${key} is already started`);
      host = h;
      stopping = new AbortController();
      const c = buildClient();
      const botId = () => c.user?.id ?? '';
      catchUp = opts.lastSeen
        ? createCatchUp({
            store: createLastSeenStore({ ...opts.lastSeen, alias: opts.alias, logger }),
            client: () => client,
            map: (message) => mapMessage(message, { key, botId: botId(), filters }),
            handOver: async (event) => (await handOver(event)) !== null,
            logger,
            ...(opts.catchUpRetryMs ? { retryMs: opts.catchUpRetryMs } : {}),
          })
        : null;
      client = c;
      const ready = once(c, Events.ClientReady);
      try {
        await c.login(opts.botToken);
        await ready;
      } catch (err) {
        client = null;
        await catchUp?.stop();
        catchUp = null;
        await c.destroy();
        throw new Error(`discord channel ${key} could not connect: ${errorMessage(err)}`);
      }
      logger.info({ bot_id: c.user?.id, guilds: c.guilds.cache.size }, 'discord channel connected');
    },
    async stop() {
      stopping.abort();
      const c = client;
      client = null;
      host = null;
      await catchUp?.stop();
      catchUp = null;
      await c?.destroy();
    },
    async send(to: Recipient, msg: OutboundMessage): Promise<MessageRef> {
      const { rows, dropped } = toComponents(msg.buttons);
      if (dropped) logger.warn({ dropped }, 'discord allows 25 buttons per message; the rest were left off');
      // A recipient with a thread (built elsewhere than this adapter) means that thread's channel.
      const target = to.thread ?? to.chat;
      const body = {
        content: msg.text,
        // The model's text never pings anyone (@everyone, roles, users).
        allowed_mentions: { parse: [] },
        ...(rows.length ? { components: rows } : {}),
      };
      const created = (await restCall(() =>
        live().rest.post(Routes.channelMessages(target), { body }),
      )) as APIMessage;
      return { channel: key, chat: target, messageId: created.id };
    },
    async sendFile(to: Recipient, file: OutboundFile): Promise<MessageRef> {
      const target = to.thread ?? to.chat;
      const created = (await restCall(() =>
        live().rest.post(Routes.channelMessages(target), fileMessage(file, DISCORD_MAX_MESSAGE_LENGTH)),
      )) as APIMessage;
      return { channel: key, chat: target, messageId: created.id };
    },
    async edit(ref: MessageRef, msg: OutboundMessage): Promise<void> {
      const { rows } = toComponents(msg.buttons);
      const body = { content: msg.text, components: rows, allowed_mentions: { parse: [] } };
      await restCall(() => live().rest.patch(Routes.channelMessage(ref.chat, ref.messageId), { body }));
    },
    async delete(ref: MessageRef): Promise<void> {
      await restCall(() => live().rest.delete(Routes.channelMessage(ref.chat, ref.messageId)));
    },
    async typing(to: Recipient): Promise<void> {
      await restCall(() => live().rest.post(Routes.channelTyping(to.thread ?? to.chat)));
    },
  };
}
