// The live-run cost (live.md §2, §3) alone: the Telegram lane with streaming and progress on and off, alternated
// so that warm-up and machine load fall on both alike. `node test/bench/live-lanes.ts [rounds]`.
import { startFakeTelegram } from '../fakes/telegram-server.ts';
import { REDIS_URL } from '../helpers/redis.ts';
import { round } from './stats.ts';
import { measureTelegramTurns, type TelegramTurnFigures } from './telegram-turns.ts';

export const LIVE_OFF = 'streaming = "off"\nprogress = "off"';

export interface LiveLaneFigures {
  on: TelegramTurnFigures[];
  off: TelegramTurnFigures[];
  /** Median over rounds of on ÷ off throughput, each pair measured back to back. */
  medianShare: number;
}

export async function measureLiveLanes(rounds: number): Promise<LiveLaneFigures> {
  const tg = await startFakeTelegram();
  const opts = { latencyTurns: 200, chats: 50, perChat: 30, concurrency: 16 };
  const on: TelegramTurnFigures[] = [];
  const off: TelegramTurnFigures[] = [];
  const shares: number[] = [];
  for (let i = 0; i < rounds; i++) {
    // Which lane goes first alternates: neither gets the warmer machine every time.
    const first = i % 2 === 0;
    const a = await measureTelegramTurns(REDIS_URL, tg, {
      ...opts,
      ...(first ? {} : { liveKeys: LIVE_OFF }),
    });
    const b = await measureTelegramTurns(REDIS_URL, tg, {
      ...opts,
      ...(first ? { liveKeys: LIVE_OFF } : {}),
    });
    const [withLive, without] = first ? [a, b] : [b, a];
    on.push(withLive);
    off.push(without);
    shares.push(withLive.telegramTurnsPerSec / without.telegramTurnsPerSec);
  }
  await tg.close();
  const sorted = [...shares].sort((x, y) => x - y);
  return { on, off, medianShare: sorted[Math.floor(sorted.length / 2)] ?? 0 };
}

if (import.meta.main) {
  const figures = await measureLiveLanes(Number(process.argv[2] ?? 4));
  figures.on.forEach((r, i) => {
    const o = figures.off[i]!;
    process.stdout.write(
      `round ${i + 1}: on ${round(r.telegramTurnsPerSec)} turns/s p50 ${round(r.p50Ms)} ms | off ${round(o.telegramTurnsPerSec)} turns/s p50 ${round(o.p50Ms)} ms\n`,
    );
  });
  process.stdout.write(`median on/off: ${round(100 * figures.medianShare)} %\n`);
  process.exit(0);
}
