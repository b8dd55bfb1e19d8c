// Builds the platform adapters of the live channels ([channels.<type>.<alias>] enabled and used by an agent).
// Adapters take plain options (they import only src/channel-host and src/core); the config mapping lives here.

import { createDiscordAdapter } from '../../channels/discord/discord-adapter.ts';
import { createSlackAdapter } from '../../channels/slack/slack-adapter.ts';
import { createTelegramAdapter } from '../../channels/telegram/telegram-adapter.ts';
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
) => ChannelAdapter | undefined;

/** One entry per platform whose adapter is in this build. */
const FACTORIES: { [T in ChannelConfig['type']]?: Factory<Extract<ChannelConfig, { type: T }>> } = {
  slack: (cfg, logger) =>
    createSlackAdapter({
      alias: cfg.alias,
      botToken: cfg.bot_token ?? '',
      appToken: cfg.app_token,
      signingSecret: cfg.signing_secret,
      apiBaseUrl: cfg.api_base_url,
      channelIds: cfg.channel_ids,
      threadReplies: cfg.thread_replies,
      logger,
    }),
  telegram: (cfg, logger) =>
    createTelegramAdapter({
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
  discord: (cfg, logger, config) =>
    createDiscordAdapter({
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

function build(cfg: ChannelConfig, logger: Logger, web: () => WebChatHub, config: BatonConfig) {
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

export function createChannelAdapters(config: BatonConfig, logger: Logger): ChannelAdapter[] {
  let hub: WebChatHub | undefined;
  const web = () => {
    hub ??= createWebChatHub({ redisTarget: config.redis, prefix: config.redis.prefix, logger });
    return hub;
  };
  return liveChannelKeys(config).flatMap((key) => {
    const cfg = channelOf(config, key);
    const adapter: ChannelAdapter | undefined = cfg ? build(cfg, logger, web, config) : undefined;
    return adapter ? [adapter] : [];
  });
}
