// baton's inbound→reply path (host → turns queue → worker → outbox → channel) with an instant model.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalChannel } from '../../channels/local/local-adapter.ts';
import { loadConfigText } from '../../src/config/index.ts';
import { createSilentLogger } from '../../src/core/logger.ts';
import { createRedis } from '../../src/core/redis.ts';
import { startGatewayRole } from '../../src/runtime/gateway-role.ts';
import { startWorkerRole } from '../../src/runtime/worker-role.ts';
import { deletePrefix, uniquePrefix } from '../helpers/redis.ts';
import { LOCAL_PEERS } from '../helpers/runtime-harness.ts';
import { createInstantProvider } from './instant-provider.ts';
import { percentile } from './stats.ts';

export interface TurnFigures {
  p50Ms: number;
  p99Ms: number;
  turnsPerSec: number;
}

export function benchConfigText(
  url: string,
  prefix: string,
  dataDir: string,
  modelUri: string,
  concurrency: number,
) {
  return `[redis]
url = "${url}"
prefix = "${prefix}"

[gateway]
data_dir = "${dataDir}"

[providers.models.custom.bench]
uri = "${modelUri}"
model = "bench-model"

[reliability]
provider_retries = 0

[risk_profiles.default]

[agents.main]
model_provider = "custom.bench"
risk_profile = "default"

[worker]
concurrency = ${concurrency}
${LOCAL_PEERS}`;
}

export async function measureBatonTurns(
  url: string,
  opts: { latencyTurns: number; throughputTurns: number; conversations: number; concurrency: number },
): Promise<TurnFigures> {
  const prefix = uniquePrefix('bench-turns');
  const dataDir = mkdtempSync(join(tmpdir(), 'baton-bench-'));
  const loaded = loadConfigText(
    benchConfigText(url, prefix, dataDir, 'http://127.0.0.1:9', opts.concurrency),
    {},
  );
  if (!loaded.config) throw new Error('bench config invalid');
  const config = loaded.config;
  const logger = createSilentLogger();
  const redis = createRedis(url, { autoPipeline: true });
  const local = createLocalChannel('test', 4000);
  const gateway = await startGatewayRole({
    config,
    logger,
    redis,
    adapters: [local],
    routes: { 'local.test': 'main' },
  });
  const instant = createInstantProvider();
  const worker = await startWorkerRole({ config, logger, redis, env: {}, createProvider: () => instant });

  // warm-up: connections, scripts and JIT
  for (let i = 0; i < 20; i++) {
    await local.inject({ chat: 'warm', text: `w${i}` });
    await local.waitForReplies(i + 1, { chat: 'warm' });
  }
  const latencies: number[] = [];
  for (let i = 0; i < opts.latencyTurns; i++) {
    const t0 = performance.now();
    await local.inject({ chat: 'lat', text: `l${i}` });
    await local.waitForReplies(i + 1, { chat: 'lat' });
    latencies.push(performance.now() - t0);
  }

  const burst = async (tag: string, n: number) => {
    const before = local.replies.length;
    const t0 = performance.now();
    const sends: Promise<unknown>[] = [];
    for (let i = 0; i < n; i++) {
      sends.push(local.inject({ chat: `${tag}-${i % opts.conversations}`, text: `t${i}` }));
    }
    await Promise.all(sends);
    await local.waitForReplies(before + n, { timeoutMs: 120_000 });
    return n / ((performance.now() - t0) / 1000);
  };
  // Steady state: the concurrent path compiled before the measure, in other conversations.
  await burst('warm', 1000);
  const turnsPerSec = await burst('tp', opts.throughputTurns);

  await worker.close(1000);
  await gateway.close(1000);
  await deletePrefix(redis, prefix);
  await redis.quit();
  rmSync(dataDir, { recursive: true, force: true });
  return {
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    turnsPerSec,
  };
}
