// Discord API v10 payload shapes for the fake (fields discord.js 14.28 reads; see shared/notes/channel-fakes.md §2).
import type { WireAttachment } from './discord-files.ts';

export interface WireUser {
  id: string;
  username: string;
  discriminator: string;
  global_name: string | null;
  avatar: null;
  bot?: boolean;
}

export interface WireChannel {
  id: string;
  /** 0 text channel, 1 DM, 11 public thread. */
  type: number;
  guild_id?: string;
  name?: string;
  parent_id?: string;
}

export interface WireButton {
  type: 2;
  custom_id: string;
  label: string;
  style: number;
}

export interface WireMessage {
  id: string;
  channel_id: string;
  guild_id?: string;
  author: WireUser;
  content: string;
  components: Array<{ type: 1; components: WireButton[] }>;
  [field: string]: unknown;
}

/** Discord's epoch: snowflakes carry milliseconds since 2015-01-01 in their top bits. */
const DISCORD_EPOCH = 1_420_070_400_000n;
let increment = 0n;

export function snowflake(): string {
  increment = (increment + 1n) % 4096n;
  return String(((BigInt(Date.now()) - DISCORD_EPOCH) << 22n) | increment);
}

export function wireUser(id: string, username: string, bot = false): WireUser {
  return { id, username, discriminator: '0', global_name: username, avatar: null, ...(bot ? { bot } : {}) };
}

export interface MessageFields {
  id: string;
  channel: WireChannel;
  author: WireUser;
  content: string;
  mentions?: WireUser[];
  attachments?: WireAttachment[];
  /** Message flags (8192: a voice message). */
  flags?: number;
  stickers?: Array<{ id: string; name: string }>;
  /** The message replied to (Discord sends it whole as `referenced_message`). */
  replyTo?: WireMessage;
  type?: number;
  components?: WireMessage['components'];
}

export function wireMessage(f: MessageFields): WireMessage {
  const dm = f.channel.type === 1;
  return {
    id: f.id,
    channel_id: f.channel.id,
    ...(dm ? { channel_type: 1 } : { guild_id: f.channel.guild_id }),
    author: f.author,
    ...(dm || f.author.bot
      ? {}
      : { member: { roles: [], joined_at: new Date(0).toISOString(), deaf: false, mute: false } }),
    content: f.content,
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: f.mentions ?? [],
    mention_roles: [],
    attachments: f.attachments ?? [],
    embeds: [],
    ...(f.stickers ? { sticker_items: f.stickers.map((s) => ({ ...s, format_type: 1 })) } : {}),
    pinned: false,
    type: f.type ?? (f.replyTo ? 19 : 0),
    flags: f.flags ?? 0,
    components: f.components ?? [],
    ...(f.replyTo
      ? {
          message_reference: { type: 0, message_id: f.replyTo.id, channel_id: f.replyTo.channel_id },
          referenced_message: f.replyTo,
        }
      : {}),
  };
}

export interface InteractionFields {
  id: string;
  token: string;
  applicationId: string;
  customId: string;
  user: WireUser;
  channel: WireChannel;
  message: WireMessage;
}

/** A button press (INTERACTION_CREATE type 3); every field listed in the notes as crashing discord.js when absent. */
export function wireButtonInteraction(f: InteractionFields): Record<string, unknown> {
  const dm = f.channel.type === 1;
  const guildId = f.channel.guild_id;
  return {
    id: f.id,
    application_id: f.applicationId,
    type: 3,
    token: f.token,
    version: 1,
    data: { custom_id: f.customId, component_type: 2 },
    channel: f.channel,
    channel_id: f.channel.id,
    ...(dm
      ? { user: f.user, context: 1, authorizing_integration_owners: { '1': f.user.id } }
      : {
          guild_id: guildId,
          member: {
            user: f.user,
            roles: [],
            permissions: '2248473465835073',
            joined_at: new Date(0).toISOString(),
            deaf: false,
            mute: false,
          },
          context: 0,
          authorizing_integration_owners: { '0': guildId },
        }),
    message: f.message,
    app_permissions: '2248473465835073',
    locale: 'en-US',
    guild_locale: 'en-US',
    entitlements: [],
  };
}

export function wireGuild(id: string, channels: WireChannel[]): Record<string, unknown> {
  const isThread = (c: WireChannel) => c.type === 11 || c.type === 12;
  return {
    id,
    name: 'fake guild',
    unavailable: false,
    member_count: 1,
    channels: channels.filter((c) => !isThread(c)),
    threads: channels.filter(isThread).map((t) => ({
      ...t,
      thread_metadata: { archived: false, auto_archive_duration: 1440, locked: false },
    })),
    members: [],
    roles: [],
    emojis: [],
    stickers: [],
    features: [],
  };
}
