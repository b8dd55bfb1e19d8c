// Shape of [channels.<type>.<alias>] for telegram, discord, slack and web (spec/config.md §12).
import type { z } from 'zod';
import { STREAM_INTERVAL_WEB, TELEGRAM_SECRET_PATTERN } from './config-messages.ts';
import {
  accepted,
  bool,
  enumOf,
  intAtLeast,
  nonNegInt,
  positiveNum,
  str,
  strArray,
  table,
  tableOf,
} from './schema-kit.ts';

// Only approval_timeout_secs has a per-type default, so the common keys are built per type.
const common = (approvalTimeoutSecs: number) => ({
  enabled: bool().default(false),
  bot_token: str().optional(),
  mention_only: bool().default(false),
  approval_timeout_secs: nonNegInt().default(approvalTimeoutSecs),
  excluded_tools: strArray().default([]),
  reply_min_interval_secs: nonNegInt().default(0),
  // live.md §2-§5.
  background_notices: bool().default(true),
  streaming: enumOf(['partial', 'off'] as const).default('partial'),
  stream_after_ms: nonNegInt().default(800),
  stream_edit_interval_ms: intAtLeast(250).default(1000),
  progress: enumOf(['compact', 'verbose', 'off'] as const).default('compact'),
  progress_after_ms: nonNegInt().default(2000),
  // media.md §3.
  max_attachment_mb: positiveNum().default(20),
});

export const telegramSchema = table({
  ...common(120),
  api_base_url: str().default('https://api.telegram.org'),
  // [baton decision] Webhook mode; the URL's path is checked against the alias in rules.ts.
  webhook_url: str().optional(),
  // Telegram's own bound on `secret_token`.
  webhook_secret: str()
    .regex(/^[A-Za-z0-9_-]{1,256}$/, { error: TELEGRAM_SECRET_PATTERN })
    .optional(),
});

export const discordSchema = table({
  ...common(300),
  api_base_url: str().default('https://discord.com/api'),
  guild_ids: strArray().default([]),
  channel_ids: strArray().default([]),
  // Accepted: baton always renders Discord approvals with buttons.
  slash_commands: accepted(),
});

export const slackSchema = table({
  ...common(300),
  api_base_url: str().default('https://slack.com/api/'),
  app_token: str().optional(),
  signing_secret: str().optional(),
  channel_ids: strArray().default([]),
  thread_replies: bool().default(true),
});

// [baton decision] The web chat (§12.4): served by the gateway itself, so no bot_token.
const { bot_token: _noToken, ...webCommon } = common(300);
export const webSchema = table({
  ...webCommon,
  // The web chat is not throttled by default (live.md §5): 0, or a real interval.
  stream_edit_interval_ms: nonNegInt()
    .refine((ms) => ms === 0 || ms >= 250, { error: STREAM_INTERVAL_WEB })
    .default(0),
  title: str().default('baton'),
});

/** An unknown channel type is an unknown key: a warning, and the type is ignored. */
export const channelsSchema = table({
  telegram: tableOf(telegramSchema).default({}),
  discord: tableOf(discordSchema).default({}),
  slack: tableOf(slackSchema).default({}),
  web: tableOf(webSchema).default({}),
});

export type ChannelsShape = z.output<typeof channelsSchema>;
