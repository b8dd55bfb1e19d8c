// Times round trips through the fake Telegram: from an update injected at the fake to the bot's sendMessage
// to that chat arriving at the fake (taken as the call is received, before the fake answers it).
import type { FakeTelegram } from '../fakes/telegram-server.ts';

export interface TelegramClock {
  /** Injects `text` into `chat` and resolves with the ms until the next sendMessage to that chat. */
  roundTrip(chat: number, text: string): Promise<number>;
}

export function createTelegramClock(tg: FakeTelegram): TelegramClock {
  const waiting = new Map<number, (at: number) => void>();
  tg.onCall((c) => {
    if (c.method !== 'sendMessage') return;
    const chat = Number(c.params.chat_id);
    const resolve = waiting.get(chat);
    if (!resolve) return;
    waiting.delete(chat);
    resolve(performance.now());
  });
  return {
    roundTrip(chat, text) {
      if (waiting.has(chat)) throw new Error(`chat ${chat} already has a round trip in flight`);
      const replied = new Promise<number>((resolve) => waiting.set(chat, resolve));
      const t0 = performance.now();
      tg.injectMessage({ chat, from: chat, text });
      return withTimeout(
        replied.then((at) => at - t0),
        30_000,
        `reply in telegram chat ${chat}`,
      );
    },
  };
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`bench: timed out waiting for ${what}`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** `chats` closed loops (each sends its next message once the last one is answered); total round trips/s. */
export async function closedLoops(
  chats: number,
  perChat: number,
  roundTrip: (chat: number, i: number) => Promise<unknown>,
): Promise<number> {
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: chats }, async (_, c) => {
      for (let i = 0; i < perChat; i++) await roundTrip(c, i);
    }),
  );
  return (chats * perChat) / ((performance.now() - t0) / 1000);
}
