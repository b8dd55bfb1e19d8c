// Slack as baton speaks it, without bolt: mrkdwn, the §12.4 card, `<channel>[:<thread_ts>]` recipients, D… ids
// for direct messages, and the documented limits.
import { type ChannelDialect, splitRecipient } from '../../src/channel-host/dialect.ts';
import { errorMessage } from '../../src/core/errors.ts';
import {
  isSlackApprovalButton,
  parseSlackPress,
  renderSlackCard,
  renderSlackDecidedCard,
} from './approval-card.ts';
import { toSlackMrkdwn } from './slack-mrkdwn.ts';

export const slackDialect: ChannelDialect = {
  kind: 'slack',
  capabilities: {
    // Message text; the adapter chunks at a section block's 3000 (outbound.ts).
    maxMessageLength: 40_000,
    // chat.update is Tier 3 (about 50 a minute).
    minEditIntervalMs: 1200,
    editsMessages: true,
    maxUploadBytes: 1024 * 1024 * 1024,
  },
  // Socket Mode allows a few connections per app, and HTTP mode any number of gateways.
  singleConsumer: false,
  textModeFallback: true,
  renderMarkdown: toSlackMrkdwn,
  renderApprovalCard: renderSlackCard,
  renderDecidedCard: renderSlackDecidedCard,
  isApprovalButton: isSlackApprovalButton,
  parseApprovalPress: parseSlackPress,
  parseRecipient: splitRecipient,
  // Direct message channel ids start with D; every other channel is shared.
  isGroupChat: (chat) => !chat.startsWith('D'),
  // The same channel, any thread.
  sameDestination: (dest, origin) => origin.chat === dest.chat,
  describeSendError: (err) => errorMessage(err),
};
