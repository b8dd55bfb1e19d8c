// The table of platforms: channel type → dialect. It imports only the dialect modules (pure, library-free), so a
// worker that parses recipients or a gateway that draws cards never loads grammy, discord.js or bolt for it.
// Adapter factories are in channel-adapters.ts.
import { discordDialect } from '../../channels/discord/dialect.ts';
import { localDialect } from '../../channels/local/dialect.ts';
import { slackDialect } from '../../channels/slack/dialect.ts';
import { telegramDialect } from '../../channels/telegram/dialect.ts';
import { webDialect } from '../../channels/web/dialect.ts';
import { type ChannelDialect, channelKind, type DialectOf } from '../channel-host/dialect.ts';

const DIALECTS: ReadonlyMap<string, ChannelDialect> = new Map(
  [telegramDialect, discordDialect, slackDialect, webDialect, localDialect].map((d) => [d.kind, d]),
);

/** A channel of a type no platform claims (a test's own) speaks like the local channel. */
export const dialectOf: DialectOf = (channelKey) => DIALECTS.get(channelKind(channelKey)) ?? localDialect;
