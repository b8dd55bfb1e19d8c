// baton's turn through the fake Telegram (real grammy adapter long-polling it), beside the local channel in the
// same gateway and worker: latency from the injected update to sendMessage, and 50-chat throughput on both.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalChannel } from '../../channels/local/local-adapter.ts';
import { loadConfigText } from '../../src/config/index.ts';
import { createSilentLogger } from '../../src/core/logger.ts';
import { createRedis } from '../../src/core/redis.ts';
import { createChannelAdapters } from '../../src/runtime/channel-adapters.ts';
import { startGatewayRole } from '../../src/runtime/gateway-role.ts';
import { startWorkerRole } from '../../src/runtime/worker-role.ts';
import type { FakeTelegram } from '../fakes/telegram-server.ts';
import { deletePrefix, uniquePrefix } from '../helpers/redis.ts';
import { benchConfigText } from './baton-turns.ts';
import { createInstantProvider } from './instant-provider.ts';
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

const telegramChannel = (apiRoot: string) => `
[channels.telegram.bench]
enabled = true
bot_token = "BATON"
api_base_url = "${apiRoot}"

[peer_groups.tg]
channel = "telegram"
agents = ["main"]
external_peers = ["*"]
`;

export async function measureTelegramTurns(
  url: string,
  tg: FakeTelegram,
  opts: { latencyTurns: number; chats: number; perChat: number; concurrency: number },
): Promise<TelegramTurnFigures> {
  const prefix = uniquePrefix('bench-tg');
  const dataDir = mkdtempSync(join(tmpdir(), 'baton-bench-tg-'));
  const text =
    benchConfigText(url, prefix, dataDir, 'http://127.0.0.1:9', opts.concurrency) + telegramChannel(tg.url);
  const loaded = loadConfigText(text, {});
  if (!loaded.config) throw new Error('bench config invalid');
  const config = loaded.config;
  const logger = createSilentLogger();
  const redis = createRedis(url, { autoPipeline: true });
  const local = createLocalChannel('test', 4000);
  const telegram = createChannelAdapters(config, logger);
  if (telegram.length !== 1) throw new Error('bench: the telegram channel did not start');
  const gateway = await startGatewayRole({
    config,
    logger,
    redis,
    adapters: [local, ...telegram],
    routes: { 'local.test': 'main' },
  });
  const instant = createInstantProvider();
  const worker = await startWorkerRole({ config, logger, redis, env: {}, createProvider: () => instant });
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

  await worker.close(1000);
  await gateway.close(1000);
  await deletePrefix(redis, prefix);
  await redis.quit();
  rmSync(dataDir, { recursive: true, force: true });
  return {
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    localP50Ms: percentile(localLatencies, 50),
    telegramTurnsPerSec: tc,
    localTurnsPerSec: lc,
  };
}
