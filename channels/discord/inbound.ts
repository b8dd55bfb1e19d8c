// discord.js messages and button interactions → the channel contract's inbound events (or why they are skipped).
//
// Where a conversation lives: `chat` is the id of the channel the reply must go to: the DM channel, the text
// channel, or, for a message in a thread, the thread's own id (a thread is a channel on Discord, and posting to its
// id lands in the thread). `thread` is therefore never set: each thread is its own conversation.
import { type ButtonInteraction, type Message, MessageType } from 'discord.js';
import type { InboundAction, InboundMessage } from '../../src/channel-host/types.ts';
import { attachmentsOf } from './files.ts';

export interface Filters {
  /** Guilds served (empty: all). DMs are not guild traffic and pass; peer_groups decide who may talk. */
  guildIds: ReadonlySet<string>;
  /** Channels served (empty: all); a thread is served when it or its parent channel is listed. */
  channelIds: ReadonlySet<string>;
}

export type Mapped<T> = { event: T } | { skip: string };

/** Plain messages and replies carry user text; joins, pins, boosts, thread starters and the like do not. */
const USER_MESSAGE_TYPES: ReadonlySet<MessageType> = new Set([MessageType.Default, MessageType.Reply]);

interface Place {
  guildId: string | null;
  channelId: string;
  parentId: string | null;
}

function served(filters: Filters, place: Place): string | null {
  if (place.guildId === null) return null;
  if (filters.guildIds.size > 0 && !filters.guildIds.has(place.guildId)) return 'guild not in guild_ids';
  if (
    filters.channelIds.size > 0 &&
    !filters.channelIds.has(place.channelId) &&
    !(place.parentId && filters.channelIds.has(place.parentId))
  ) {
    return 'channel not in channel_ids';
  }
  return null;
}

function placeOf(
  channel: Message['channel'] | ButtonInteraction['channel'],
  guildId: string | null,
  id: string,
) {
  const parentId = channel?.isThread() ? channel.parentId : null;
  return { guildId, channelId: id, parentId };
}

/** The text the model sees: the bot's own mention removed (the files go as attachments). */
const textOf = (message: Message, botId: string): string =>
  message.content.replace(new RegExp(`<@!?${botId}>`, 'g'), '').trim();

export function mapMessage(
  message: Message,
  ctx: { key: string; botId: string; filters: Filters },
): Mapped<InboundMessage> {
  if (message.author.id === ctx.botId) return { skip: 'own message' };
  if (message.author.bot || message.webhookId) return { skip: 'bot or webhook message' };
  if (message.system || !USER_MESSAGE_TYPES.has(message.type))
    return { skip: `message type ${message.type}` };
  const notServed = served(ctx.filters, placeOf(message.channel, message.guildId, message.channelId));
  if (notServed) return { skip: notServed };
  const attachments = attachmentsOf(message);
  // Text or files count (a file alone is a turn, media.md §1); a sticker or embed alone carries nothing to answer.
  if (!message.content.trim() && attachments.length === 0)
    return { skip: 'no text or file (sticker or embed)' };
  const text = textOf(message, ctx.botId);
  if (!text && attachments.length === 0) return { skip: 'only a mention of the bot' };
  const isDirect = message.guildId === null;
  const addressedToBot =
    message.mentions.users.has(ctx.botId) || message.mentions.repliedUser?.id === ctx.botId;
  return {
    event: {
      kind: 'message',
      channel: ctx.key,
      // The message id: a replay after RESUME carries the same id and dedupes in the inbox.
      eventId: message.id,
      chat: message.channelId,
      sender: { id: message.author.id, username: message.author.username },
      text,
      ...(attachments.length ? { attachments } : {}),
      isDirect,
      addressedToBot,
      receivedAt: new Date().toISOString(),
    },
  };
}

export function mapButton(
  interaction: ButtonInteraction,
  ctx: { key: string; filters: Filters },
): Mapped<InboundAction> {
  const notServed = served(
    ctx.filters,
    placeOf(interaction.channel, interaction.guildId, interaction.channelId),
  );
  if (notServed) return { skip: notServed };
  return {
    event: {
      kind: 'action',
      channel: ctx.key,
      eventId: interaction.id,
      chat: interaction.channelId,
      sender: { id: interaction.user.id, username: interaction.user.username },
      actionId: interaction.customId,
      messageId: interaction.message.id,
      receivedAt: new Date().toISOString(),
    },
  };
}
