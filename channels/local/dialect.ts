// The local test channel has no platform of its own: text as written (tests read the Markdown source), and
// Telegram's cards and button data, whose ids it carries as given.
import { type ChannelDialect, sameChatAndThread, splitRecipient } from '../../src/channel-host/dialect.ts';
import { errorMessage } from '../../src/core/errors.ts';
import { telegramDialect } from '../telegram/dialect.ts';

export const localDialect: ChannelDialect = {
  kind: 'local',
  capabilities: {
    // In process: what the adapter chunks at by default; edits and files are not limited.
    maxMessageLength: 4000,
    minEditIntervalMs: 0,
    editsMessages: true,
    maxUploadBytes: 1024 * 1024 * 1024,
  },
  singleConsumer: false,
  textModeFallback: true,
  renderMarkdown: (markdown) => markdown,
  renderApprovalCard: telegramDialect.renderApprovalCard,
  renderDecidedCard: telegramDialect.renderDecidedCard,
  isApprovalButton: telegramDialect.isApprovalButton,
  parseApprovalPress: telegramDialect.parseApprovalPress,
  parseRecipient: splitRecipient,
  isGroupChat: () => true,
  sameDestination: sameChatAndThread,
  describeSendError: (err) => errorMessage(err),
};
