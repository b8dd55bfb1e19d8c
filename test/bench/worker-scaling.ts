// Throughput with one and with two `baton worker` processes, against a model that answers after 20 ms.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalChannel } from '../../channels/local/local-adapter.ts';
import { createSilentLogger } from '../../src/core/logger.ts';
import { startGatewayRole } from '../../src/roles/gateway-role.ts';
import { startFakeModelServer } from '../fakes/model-server.ts';
import { type BatonProcess, startBaton } from '../helpers/baton-process.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../helpers/redis.ts';
import { echoResponder } from '../helpers/runtime-harness.ts';
import { configFromToml } from '../helpers/test-config.ts';
import { benchConfigText } from './bench-runtime.ts';

async function turnsPerSec(
  url: string,
  workers: number,
  opts: { turns: number; warmupTurns: number; concurrency: number; modelMs: number },
) {
  const server = await startFakeModelServer();
  server.respond(echoResponder(() => opts.modelMs));
  const prefix = uniquePrefix('bench-scale');
  const dataDir = mkdtempSync(join(tmpdir(), 'baton-bench-scale-'));
  const text = benchConfigText(url, prefix, dataDir, server.openaiBaseUrl, opts.concurrency);
  const cfgPath = join(dataDir, 'baton.toml');
  writeFileSync(cfgPath, text);
  const config = configFromToml(text);
  const redis = testRedis(url);
  const local = createLocalChannel('test', 4000);
  const gateway = await startGatewayRole({
    config,
    logger: createSilentLogger(),
    redis,
    adapters: [local],
    routes: { 'local.test': 'main' },
  });
  const procs: BatonProcess[] = [];
  for (let i = 0; i < workers; i++) procs.push(startBaton(['worker', '-c', cfgPath]));
  await Promise.all(procs.map((p) => p.waitFor(/baton worker running/)));

  const burst = async (tag: string, n: number) => {
    const before = local.replies.length;
    const t0 = performance.now();
    const sends: Promise<unknown>[] = [];
    for (let i = 0; i < n; i++) sends.push(local.inject({ chat: `${tag}-${i}`, text: `t${i}` }));
    await Promise.all(sends);
    await local.waitForReplies(before + n, { timeoutMs: 120_000 });
    return n / ((performance.now() - t0) / 1000);
  };
  // Steady state: every worker process has compiled its hot paths before the measure.
  await burst('warm', opts.warmupTurns);
  const rate = await burst('s', opts.turns);

  for (const p of procs) p.kill('SIGTERM');
  await Promise.all(procs.map((p) => p.exited));
  await gateway.close(1000);
  await server.close();
  await deletePrefix(redis, prefix);
  await redis.quit();
  rmSync(dataDir, { recursive: true, force: true });
  return rate;
}

export async function measureWorkerScaling(url: string) {
  const opts = { turns: 800, warmupTurns: 300, concurrency: 4, modelMs: 20 };
  const one = await turnsPerSec(url, 1, opts);
  const two = await turnsPerSec(url, 2, opts);
  return { oneWorkerTurnsPerSec: one, twoWorkersTurnsPerSec: two, ratio: two / one };
}
