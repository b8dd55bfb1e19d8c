// Prints both chats of the demo as they happen: every message the bot posts (and every later edit of it) in
// Telegram and in Slack, beside what the people there do.
import type { FakeSlackServer } from '../fakes/slack-server.ts';
import type { FakeTelegram } from '../fakes/telegram-server.ts';

type Where = 'telegram' | 'slack';

const LABEL: Record<Where, string> = { telegram: '[telegram home]', slack: '[slack #ops]   ' };

export interface ChatPrinter {
  /** A person's action, printed at once. */
  user(where: Where, who: string, text: string): void;
  /** Prints what the bots posted or edited since the last look. */
  flush(): void;
  stop(): void;
}

export function createChatPrinter(telegram: FakeTelegram, slack: FakeSlackServer): ChatPrinter {
  const seen = new Map<string, string>();
  const show = (where: Where, key: string, text: string, buttons: string[]) => {
    const shown = `${text}${buttons.length > 0 ? `\n[ ${buttons.join(' ] [ ')} ]` : ''}`;
    const before = seen.get(key);
    if (before === shown) return;
    seen.set(key, shown);
    const head = `${LABEL[where]} ${before === undefined ? 'baton:' : 'baton (edited):'}`;
    process.stdout.write(`${head} ${shown.replaceAll('\n', `\n${' '.repeat(head.length + 1)}`)}\n`);
  };
  const flush = () => {
    for (const m of telegram.sent) {
      const v = m.versions.at(-1);
      const buttons = (v?.reply_markup?.inline_keyboard ?? []).flat().map((b) => b.text);
      show('telegram', `tg:${m.message.message_id}`, v?.text ?? '', buttons);
    }
    for (const m of slack.messages) {
      type Block = {
        type?: string;
        text?: { text?: string };
        elements?: Array<{ text?: { text?: string } }>;
      };
      const blocks = Array.isArray(m.blocks) ? (m.blocks as Block[]) : [];
      const buttons = blocks.flatMap((b) => b.elements ?? []).map((e) => e.text?.text ?? '?');
      const section = blocks.find((b) => b.type === 'section')?.text?.text;
      show('slack', `sl:${m.ts}`, section ?? m.text, buttons);
    }
  };
  const timer = setInterval(flush, 50);
  return {
    user(where, who, text) {
      flush();
      process.stdout.write(`${LABEL[where]} ${who}: ${text}\n`);
    },
    flush,
    stop: () => clearInterval(timer),
  };
}
