// Discord as baton speaks it, without discord.js: Markdown as is, the §12.3 card, one id per recipient (a thread
// is a channel), and the documented limits.
import type { ChannelDialect } from '../../src/channel-host/dialect.ts';
import { errorMessage } from '../../src/core/errors.ts';
import {
  isDiscordApprovalButton,
  parseDiscordPress,
  renderDiscordCard,
  renderDiscordDecidedCard,
} from './approval-card.ts';

export const discordDialect: ChannelDialect = {
  kind: 'discord',
  capabilities: {
    maxMessageLength: 2000,
    // 5 edits per 5 s per channel.
    minEditIntervalMs: 1000,
    editsMessages: true,
    // Without server boosts (boosted servers allow more).
    maxUploadBytes: 10 * 1024 * 1024,
  },
  // One gateway session per bot token.
  singleConsumer: true,
  textModeFallback: true,
  renderMarkdown: (markdown) => markdown,
  renderApprovalCard: renderDiscordCard,
  renderDecidedCard: renderDiscordDecidedCard,
  isApprovalButton: isDiscordApprovalButton,
  parseApprovalPress: (id) => parseDiscordPress(id),
  // A thread is a channel of its own: the whole value is the id.
  parseRecipient: (value) => ({ chat: value.trim() }),
  isGroupChat: () => true,
  // The effective target is the thread when there is one, else the channel.
  sameDestination: (dest, origin) => (origin.thread ?? origin.chat) === (dest.thread ?? dest.chat),
  describeSendError: (err) => errorMessage(err),
};
