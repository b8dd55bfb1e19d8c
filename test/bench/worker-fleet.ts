// The multi-process benches' fleet: the gateway in this process with the local channel, `workers` `baton worker`
// processes on one config file, and a fake model answering after `modelMs`; close() stops and removes it all.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalChannel, type LocalChannel } from '../../channels/local/local-adapter.ts';
import { createSilentLogger } from '../../src/core/logger.ts';
import { createRedis } from '../../src/core/redis.ts';
import { startGatewayRole } from '../../src/roles/gateway-role.ts';
import { startFakeModelServer } from '../fakes/model-server.ts';
import { type BatonProcess, startBaton } from '../helpers/baton-process.ts';
import { deletePrefix, uniquePrefix } from '../helpers/redis.ts';
import { echoResponder } from '../helpers/runtime-harness.ts';
import { configFromToml } from '../helpers/test-config.ts';

export interface WorkerFleet {
  procs: BatonProcess[];
  /** Seconds until every reply of `n` messages, each in a conversation of its own, has arrived. */
  burst(tag: string, n: number, timeoutMs?: number): Promise<number>;
  close(): Promise<void>;
}

export async function startWorkerFleet(opts: {
  /** Tags the Redis prefix and the data dir. */
  name: string;
  workers: number;
  modelMs: number;
  /** The config file's text for this prefix, data dir and model. */
  configText: (prefix: string, dataDir: string, modelBaseUrl: string) => string;
}): Promise<WorkerFleet> {
  const server = await startFakeModelServer();
  server.respond(echoResponder(() => opts.modelMs));
  const prefix = uniquePrefix(`bench-${opts.name}`);
  const dataDir = mkdtempSync(join(tmpdir(), `baton-bench-${opts.name}-`));
  const text = opts.configText(prefix, dataDir, server.openaiBaseUrl);
  const cfgPath = join(dataDir, 'baton.toml');
  writeFileSync(cfgPath, text);
  const config = configFromToml(text);
  const redis = createRedis(config.redis, { autoPipeline: true });
  const local: LocalChannel = createLocalChannel('test', 4000);
  const gateway = await startGatewayRole({
    config,
    logger: createSilentLogger(),
    redis,
    adapters: [local],
    routes: { 'local.test': 'main' },
  });
  const procs: BatonProcess[] = [];
  const close = async () => {
    for (const p of procs) p.kill('SIGTERM');
    await Promise.all(procs.map((p) => p.exited));
    await gateway.close(1000);
    await server.close();
    await deletePrefix(redis, prefix);
    redis.disconnect();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < opts.workers; i++) procs.push(startBaton(['worker', '-c', cfgPath]));
    await Promise.all(procs.map((p) => p.waitFor(/baton worker running/, 60_000)));
  } catch (err) {
    await close();
    throw err;
  }
  return {
    procs,
    async burst(tag, n, timeoutMs = 120_000) {
      const before = local.replies.length;
      const t0 = performance.now();
      const sends: Promise<unknown>[] = [];
      for (let i = 0; i < n; i++) sends.push(local.inject({ chat: `${tag}-${i}`, text: `t${i}` }));
      await Promise.all(sends);
      await local.waitForReplies(before + n, { timeoutMs });
      return (performance.now() - t0) / 1000;
    },
    close,
  };
}
