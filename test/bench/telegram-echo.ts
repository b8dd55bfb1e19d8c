// The floor for a Telegram turn: a bare grammy bot on the fake that answers every message with ctx.reply.
import { Bot } from 'grammy';
import type { FakeTelegram } from '../fakes/telegram-server.ts';
import { percentile } from './stats.ts';
import { createTelegramClock } from './telegram-clock.ts';

/** `warmUp` round trips first (default 20), not measured. */
export async function measureEchoBot(
  tg: FakeTelegram,
  opts: { turns: number; chat: number; warmUp?: number },
) {
  const bot = new Bot('ECHO', { client: { apiRoot: tg.url } });
  bot.on('message', (ctx) => ctx.reply(ctx.message.text ?? '?'));
  await new Promise<void>((resolve, reject) => {
    bot.start({ timeout: 30, onStart: () => resolve() }).catch(reject);
  });
  const clock = createTelegramClock(tg);
  for (let i = 0; i < (opts.warmUp ?? 20); i++) await clock.roundTrip(opts.chat, `warm ${i}`);
  const latencies: number[] = [];
  for (let i = 0; i < opts.turns; i++) latencies.push(await clock.roundTrip(opts.chat, `echo ${i}`));
  await bot.stop();
  return { p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99) };
}
