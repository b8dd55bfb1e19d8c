// Builds the platform adapters of the live channels ([channels.<type>.<alias>] enabled and used by an agent).
// Adapters take plain options (they import only src/channel-host and src/core); the config mapping lives here.
// A platform's adapter module (and so its library: grammy, discord.js, Bolt) is imported only when a live channel
// needs it: discord.js and Bolt alone are tens of MB of heap in a process that never talks to Discord or Slack.

import { createWebAdapter } from '../../channels/web/web-adapter.ts';
import { createWebChatHub, type WebChatHub } from '../../channels/web/web-hub.ts';
import type { ChannelAdapter } from '../channel-host/types.ts';
import { channelOf } from '../config/lookup.ts';
import type { BatonConfig, ChannelConfig } from '../config/types.ts';
import { liveChannelKeys } from '../config/views.ts';
import type { Logger } from '../core/logger.ts';
import { renderChatMarkdown, renderChatPlain } from '../web/markdown.ts';

/** Undefined: the channel cannot run in this build (logged by the factory). */
type Factory<C extends ChannelConfig> = (
  cfg: C,
  logger: Logger,
  config: BatonConfig,
) => Promise<ChannelAdapter | undefined>;

/** One entry per platform whose adapter is in this build. */
const FACTORIES: { [T in ChannelConfig['type']]?: Factory<Extract<ChannelConfig, { type: T }>> } = {
  slack: async (cfg, logger) =>
    (await import('../../channels/slack/slack-adapter.ts')).createSlackAdapter({
      alias: cfg.alias,
      botToken: cfg.bot_token ?? '',
      appToken: cfg.app_token,
      signingSecret: cfg.signing_secret,
      apiBaseUrl: cfg.api_base_url,
      channelIds: cfg.channel_ids,
      threadReplies: cfg.thread_replies,
      logger,
    }),
  telegram: async (cfg, logger) =>
    (await import('../../channels/telegram/telegram-adapter.ts')).createTelegramAdapter({
      alias: cfg.alias,
      botToken: cfg.bot_token ?? '',
      apiBaseUrl: cfg.api_base_url,
      // The config rules require the secret with the URL; both present or polling.
      webhook:
        cfg.webhook_url && cfg.webhook_secret
          ? { url: cfg.webhook_url, secret: cfg.webhook_secret }
          : undefined,
      logger,
    }),
  discord: async (cfg, logger, config) =>
    (await import('../../channels/discord/discord-adapter.ts')).createDiscordAdapter({
      alias: cfg.alias,
      botToken: cfg.bot_token ?? '',
      apiBaseUrl: cfg.api_base_url,
      guildIds: cfg.guild_ids,
      channelIds: cfg.channel_ids,
      // The last message seen per Discord channel: what a (re)connect catches up from.
      lastSeen: { redisTarget: config.redis, prefix: config.redis.prefix },
      logger,
    }),
};

async function build(
  cfg: ChannelConfig,
  logger: Logger,
  web: () => WebChatHub,
  config: BatonConfig,
): Promise<ChannelAdapter | undefined> {
  const log = logger.child({ channel: cfg.key });
  switch (cfg.type) {
    case 'web':
      // Every web chat of this process shares one pub/sub connection (the hub).
      return createWebAdapter({
        alias: cfg.alias,
        title: cfg.title,
        redisTarget: config.redis,
        prefix: config.redis.prefix,
        hub: web(),
        render: { markdown: renderChatMarkdown, plain: renderChatPlain },
        logger: log,
      });
    case 'telegram':
      return FACTORIES.telegram?.(cfg, log, config);
    case 'discord':
      return FACTORIES.discord?.(cfg, log, config);
    case 'slack':
      return FACTORIES.slack?.(cfg, log, config);
  }
}

export async function createChannelAdapters(config: BatonConfig, logger: Logger): Promise<ChannelAdapter[]> {
  let hub: WebChatHub | undefined;
  const web = () => {
    hub ??= createWebChatHub({ redisTarget: config.redis, prefix: config.redis.prefix, logger });
    return hub;
  };
  const adapters: ChannelAdapter[] = [];
  // In config order, one at a time: the web chats share the hub the first of them creates.
  for (const key of liveChannelKeys(config)) {
    const cfg = channelOf(config, key);
    const adapter = cfg ? await build(cfg, logger, web, config) : undefined;
    if (adapter) adapters.push(adapter);
  }
  return adapters;
}
