// The floor for a Telegram turn: a bare grammy bot on the fake that answers every message with ctx.reply.
import { Bot } from 'grammy';
import type { FakeTelegram } from '../fakes/telegram-server.ts';
import { percentile } from './stats.ts';
import { createTelegramClock } from './telegram-clock.ts';

export interface EchoBot {
  /** `n` round trips on `chat`, ms each. */
  sample(n: number): Promise<number[]>;
  stop(): Promise<void>;
}

/** Starts the bot and makes `warmUp` round trips (default 20), not measured. */
export async function startEchoBot(
  tg: FakeTelegram,
  opts: { chat: number; warmUp?: number },
): Promise<EchoBot> {
  const bot = new Bot('ECHO', { client: { apiRoot: tg.url } });
  bot.on('message', (ctx) => ctx.reply(ctx.message.text ?? '?'));
  await new Promise<void>((resolve, reject) => {
    bot.start({ timeout: 30, onStart: () => resolve() }).catch(reject);
  });
  const clock = createTelegramClock(tg);
  let i = 0;
  const sample = async (n: number) => {
    const out: number[] = [];
    for (let k = 0; k < n; k++) out.push(await clock.roundTrip(opts.chat, `echo ${i++}`));
    return out;
  };
  await sample(opts.warmUp ?? 20);
  return { sample, stop: () => bot.stop() };
}

export async function measureEchoBot(
  tg: FakeTelegram,
  opts: { turns: number; chat: number; warmUp?: number },
) {
  const bot = await startEchoBot(tg, opts);
  const latencies = await bot.sample(opts.turns);
  await bot.stop();
  return { p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99) };
}
