// baton's turn through the fake Telegram (real grammy adapter long-polling it), beside the local channel in the
// same gateway and worker: latency from the injected update to sendMessage, and 50-chat throughput on both.
import type { FakeTelegram } from '../fakes/telegram-server.ts';
import { startBenchRuntime } from './bench-runtime.ts';
import { percentile } from './stats.ts';
import { closedLoops, createTelegramClock } from './telegram-clock.ts';

export interface TelegramTurnFigures {
  p50Ms: number;
  p99Ms: number;
  /** The same sequential turns through the local channel, in the same gateway and worker. */
  localP50Ms: number;
  telegramTurnsPerSec: number;
  localTurnsPerSec: number;
}

/** The bench's Telegram channel on the fake Bot API at `apiRoot`, open to everyone. */
export const telegramChannel = (apiRoot: string, liveKeys = '') => `
[channels.telegram.bench]
enabled = true
bot_token = "BATON"
api_base_url = "${apiRoot}"
${liveKeys}

[peer_groups.tg]
channel = "telegram"
agents = ["main"]
external_peers = ["*"]
`;

export async function measureTelegramTurns(
  url: string,
  tg: FakeTelegram,
  opts: {
    latencyTurns: number;
    chats: number;
    perChat: number;
    concurrency: number;
    /** Channel keys added to the table (the live-run lane turns streaming and progress off). */
    liveKeys?: string;
  },
): Promise<TelegramTurnFigures> {
  const baton = await startBenchRuntime(url, {
    name: 'tg',
    concurrency: opts.concurrency,
    channelsToml: telegramChannel(tg.url, opts.liveKeys),
  });
  const { local } = baton;
  const clock = createTelegramClock(tg);

  const localCount = new Map<string, number>();
  const localTrip = async (chat: string) => {
    const n = (localCount.get(chat) ?? 0) + 1;
    localCount.set(chat, n);
    const t0 = performance.now();
    await local.inject({ chat, text: 't' });
    await local.waitForReplies(n, { chat, timeoutMs: 30_000 });
    return performance.now() - t0;
  };
  // Telegram chat ids: 1 for latency, 100+ for the throughput loops (positive: private chats, always addressed).
  // Sequential turns, the two channels alternating so that both see the same warm-up and machine load.
  const latencies: number[] = [];
  const localLatencies: number[] = [];
  for (let i = 0; i < 50 + opts.latencyTurns; i++) {
    const viaTelegram = await clock.roundTrip(1, `l${i}`);
    const viaLocal = await localTrip('lat');
    if (i < 50) continue; // warm-up: connections, scripts and JIT
    latencies.push(viaTelegram);
    localLatencies.push(viaLocal);
  }
  const loops = async (tag: string, perChat: number) => {
    const lc = await closedLoops(opts.chats, perChat, (c) => localTrip(`${tag}-${c}`));
    const tc = await closedLoops(opts.chats, perChat, (c, i) =>
      clock.roundTrip(tag === 'warm' ? 100 + c : 200 + c, `t${i}`),
    );
    return { lc, tc };
  };
  await loops('warm', 3);
  const { lc, tc } = await loops('tp', opts.perChat);

  await baton.close();
  return {
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    localP50Ms: percentile(localLatencies, 50),
    telegramTurnsPerSec: tc,
    localTurnsPerSec: lc,
  };
}
