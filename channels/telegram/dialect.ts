// Telegram as baton speaks it, without grammY: HTML markup, the §12.2 card, `<chat>[:<thread>]` recipients,
// negative ids for groups, and the Bot API's documented limits.
import { type ChannelDialect, sameChatAndThread, splitRecipient } from '../../src/channel-host/dialect.ts';
import { errorMessage } from '../../src/core/errors.ts';
import {
  isTelegramApprovalButton,
  parseTelegramPress,
  renderTelegramCard,
  renderTelegramDecidedCard,
} from './approval-card.ts';
import { toTelegramHtml } from './telegram-html.ts';

/** The Bot API's error fields (grammY's GrammyError has them), read structurally. */
function describeSendError(err: unknown, what: string): string {
  const e = (typeof err === 'object' && err !== null ? err : {}) as {
    error_code?: unknown;
    description?: unknown;
  };
  return `Telegram sendMessage (${what}) failed (${String(e.error_code ?? '?')}): ${String(e.description ?? errorMessage(err))}`;
}

export const telegramDialect: ChannelDialect = {
  kind: 'telegram',
  capabilities: {
    maxMessageLength: 4096,
    // About one message per second per chat before 429s.
    minEditIntervalMs: 1000,
    editsMessages: true,
    maxUploadBytes: 50 * 1024 * 1024,
  },
  // Long polling allows one getUpdates consumer per token (webhook mode: the adapter says otherwise).
  singleConsumer: true,
  // The adapter already retried the card as plain text with the same buttons (§12.2).
  textModeFallback: false,
  renderMarkdown: toTelegramHtml,
  renderApprovalCard: renderTelegramCard,
  renderDecidedCard: renderTelegramDecidedCard,
  isApprovalButton: isTelegramApprovalButton,
  parseApprovalPress: (data) => parseTelegramPress(data),
  parseRecipient: splitRecipient,
  // Group and supergroup ids are negative.
  isGroupChat: (chat) => chat.startsWith('-'),
  sameDestination: sameChatAndThread,
  describeSendError,
};
