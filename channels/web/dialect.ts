// The web chat: the local channel's dialect (baton's own page renders the Markdown, and cards use Telegram's
// layout and button data; the page shows a card's plain text with its buttons under it), with the web server's
// limits. The chat lives in Redis, so every gateway serves it (not single-consumer, as for the local channel).
import type { ChannelDialect } from '../../src/channel-host/dialect.ts';
import { localDialect } from '../local/dialect.ts';

export const webDialect: ChannelDialect = {
  ...localDialect,
  kind: 'web',
  capabilities: {
    // baton's own server: what the adapter accepts per message; no edit rate limit.
    maxMessageLength: 16_000,
    minEditIntervalMs: 0,
    editsMessages: true,
    maxUploadBytes: 100 * 1024 * 1024,
  },
};
