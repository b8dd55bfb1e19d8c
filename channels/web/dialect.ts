// The web chat: baton's own page renders the Markdown (src/web), and cards use Telegram's layout and button data;
// the page shows a card's plain text with its buttons under it.
import { type ChannelDialect, sameChatAndThread, splitRecipient } from '../../src/channel-host/dialect.ts';
import { errorMessage } from '../../src/core/errors.ts';
import { telegramDialect } from '../telegram/dialect.ts';

export const webDialect: ChannelDialect = {
  kind: 'web',
  capabilities: {
    // baton's own server: what the adapter accepts per message; no edit rate limit.
    maxMessageLength: 16_000,
    minEditIntervalMs: 0,
    editsMessages: true,
    maxUploadBytes: 100 * 1024 * 1024,
  },
  // The chat lives in Redis: every gateway serves it.
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
