// The Telegram adapter against the real Bot API: send, then edit, and Telegram's own answer shows the edit.
// Runs only with TELEGRAM_BOT_TOKEN and BATON_LIVE_TELEGRAM_CHAT (a chat the bot may write to).
import { Api, GrammyError } from 'grammy';
import { describe, expect, it } from 'vitest';
import { createTelegramAdapter } from '../../channels/telegram/telegram-adapter.ts';
import { createSilentLogger } from '../../src/core/logger.ts';
import { liveEnv, liveNonce } from '../helpers/live-env.ts';

const live = liveEnv(['TELEGRAM_BOT_TOKEN', 'BATON_LIVE_TELEGRAM_CHAT']);
const token = live.vars.TELEGRAM_BOT_TOKEN ?? '';
const chat = live.vars.BATON_LIVE_TELEGRAM_CHAT ?? '';

describe.skipIf(live.skipReason)(`live Telegram ${live.skipReason ? `(${live.skipReason})` : ''}`, () => {
  it('sends a message and edits it through the real Bot API', async () => {
    // Not started: polling would confirm (and so take) the bot's pending updates. Sending needs no polling.
    const adapter = createTelegramAdapter({ alias: 'live', botToken: token, logger: createSilentLogger() });
    const text = liveNonce();
    const ref = await adapter.send({ channel: 'telegram.live', chat }, { text });
    expect(ref.messageId).toMatch(/^\d+$/);
    await adapter.edit(ref, { text: `${text} (edited)` });
    // Telegram refuses an edit to the text a message already has: the refusal proves the edit landed.
    const api = new Api(token);
    const again = await api
      .editMessageText(ref.chat, Number(ref.messageId), `${text} (edited)`)
      .catch((err: unknown) => err);
    expect(again).toBeInstanceOf(GrammyError);
    expect((again as GrammyError).description).toMatch(/message is not modified/);
    await api.deleteMessage(ref.chat, Number(ref.messageId)).catch(() => {});
  });
});
