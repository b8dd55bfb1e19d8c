// live.md §2, §3 on Telegram: the real grammy adapter (long polling) against the fake Bot API.
import { type FakeTelegram, startFakeTelegram } from '../../../fakes/telegram-server.ts';
import { liveChatSuite } from './live-suite.ts';

let tg: FakeTelegram;
let nextChat = 700;

liveChatSuite({
  name: 'telegram',
  key: 'telegram.home',
  async start() {
    tg = await startFakeTelegram({ token: 'TL' });
  },
  channelToml: (keys) => `
[channels.telegram.home]
enabled = true
bot_token = "TL"
api_base_url = "${tg.url}/"
${keys}

[peer_groups.tg]
channel = "telegram"
agents = ["main"]
external_peers = ["*"]
`,
  close: () => tg.close(),
  async say(text) {
    const chat = ++nextChat;
    tg.injectMessage({ chat, from: chat, text });
    return String(chat);
  },
  messages: (chat) =>
    tg.sent
      .filter((s) => s.message.chat.id === Number(chat))
      .map((s) => ({
        id: String(s.message.message_id),
        versions: s.versions.map((v) => v.text),
        deleted: !!s.deleted,
      })),
  writeTimes: (chat) =>
    tg.calls
      .filter(
        (c) =>
          (c.method === 'sendMessage' || c.method === 'editMessageText') && String(c.params.chat_id) === chat,
      )
      .map((c) => c.at),
  userDeletes(chat, id) {
    const found = tg.sent.find(
      (s) => String(s.message.chat.id) === chat && String(s.message.message_id) === id,
    );
    if (found) found.deleted = true;
  },
});
