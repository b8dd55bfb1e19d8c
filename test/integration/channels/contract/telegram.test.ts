// The channel contract on the Telegram adapter (real grammy, long polling) against the fake Bot API.
import type { FakeTelegram } from '../../../fakes/telegram-server.ts';
import type { SentMessage } from '../../../fakes/telegram-state.ts';
import { user } from '../../../fakes/telegram-wire.ts';
import { startStop, telegramOnFake } from '../on-fake.ts';
import type { PlatformDriver, WireMessage } from './driver.ts';
import { channelContract } from './suite.ts';

const ALICE = user(7, 'alice');
const BOB = user(8, 'bob');
const FORUM = { id: -1001, type: 'supergroup' as const, is_forum: true, title: 'forum' };
const TOPIC = 3;

let tg: FakeTelegram;
/** The newest update injected: a long poll asking past it is held (nothing pending). */
let lastUpdate = 0;

const placeOf = (chat: number, thread?: number) => `${chat}/${thread ?? ''}`;
const toWire = (s: SentMessage): WireMessage => ({
  id: String(s.message.message_id),
  place: placeOf(s.message.chat.id, s.message.message_thread_id),
  text: s.message.text ?? '',
  buttons: (s.message.reply_markup?.inline_keyboard ?? []).map((row) =>
    row.map((b) => ({ id: b.callback_data ?? '', label: b.text })),
  ),
});

const driver: PlatformDriver = {
  name: 'telegram',
  ...startStop(
    (host) => telegramOnFake(host, 'contract'),
    (f) => {
      tg = f;
    },
  ),
  async injectText(where, text) {
    if (where === 'chat') {
      lastUpdate = tg.injectMessage({ chat: ALICE.id, from: ALICE, text }).updateId;
      return {
        expect: { chat: String(ALICE.id), isDirect: true, sender: { id: String(ALICE.id) } },
        place: placeOf(ALICE.id),
      };
    }
    lastUpdate = tg.injectMessage({ chat: FORUM, from: ALICE, text, thread: TOPIC }).updateId;
    return {
      expect: {
        chat: String(FORUM.id),
        thread: String(TOPIC),
        isDirect: false,
        sender: { id: String(ALICE.id) },
      },
      place: placeOf(FORUM.id, TOPIC),
    };
  },
  sent: () => tg.sent.map(toWire),
  async press(messageId, actionId) {
    const sent = tg.sent.find((s) => String(s.message.message_id) === messageId);
    if (!sent) throw new Error(`fake telegram: no message ${messageId}`);
    tg.injectCallback({ message: sent.message, from: BOB, data: actionId });
    return { sender: { id: String(BOB.id) } };
  },
  rateLimitNextSend(retryAfterSecs) {
    tg.failNext('sendMessage', { status: 429, retryAfter: retryAfterSecs });
  },
  sendAttempts: (text) => tg.calls.filter((c) => c.method === 'sendMessage' && c.params.text === text).length,
  async dropConnection() {
    // Cut while the fake holds grammy's next long poll, so the cut lands on the inbound connection.
    await tg.waitForCall(
      (c) =>
        c.method === 'getUpdates' && Number(c.params.timeout) > 0 && Number(c.params.offset) > lastUpdate,
    );
    if (tg.dropConnections() === 0) throw new Error('fake telegram: no connection to drop');
  },
};

channelContract(driver);
