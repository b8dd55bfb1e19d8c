// The turn benches' baton: gateway and worker roles in this process on real Redis and an instant model, the local
// channel plus any platform channels `channelsToml` configures; close() stops both and removes what they left.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalChannel, type LocalChannel } from '../../channels/local/local-adapter.ts';
import type { ChannelAdapter } from '../../src/channel-host/types.ts';
import { createSilentLogger } from '../../src/core/logger.ts';
import { createRedis } from '../../src/core/redis.ts';
import { createIdleHints } from '../../src/queue/idle-hints.ts';
import { createChannelAdapters } from '../../src/roles/channel-adapters.ts';
import { startGatewayRole } from '../../src/roles/gateway-role.ts';
import { startWorkerRole } from '../../src/roles/worker-role.ts';
import { deletePrefix, uniquePrefix } from '../helpers/redis.ts';
import { LOCAL_PEERS } from '../helpers/runtime-harness.ts';
import { configFromToml, fakeModelAgentToml } from '../helpers/test-config.ts';
import { createInstantProvider } from './instant-provider.ts';

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

${fakeModelAgentToml(modelUri)}
[worker]
concurrency = ${concurrency}
${LOCAL_PEERS}`;
}

export interface BenchRuntime {
  local: LocalChannel;
  close(): Promise<void>;
}

/** `name` tags the Redis prefix and the data dir; `channelsToml` must configure exactly one platform channel. */
export async function startBenchRuntime(
  url: string,
  opts: { name: string; concurrency: number; channelsToml?: string },
): Promise<BenchRuntime> {
  const prefix = uniquePrefix(`bench-${opts.name}`);
  const dataDir = mkdtempSync(join(tmpdir(), `baton-bench-${opts.name}-`));
  const text =
    benchConfigText(url, prefix, dataDir, 'http://127.0.0.1:9', opts.concurrency) + (opts.channelsToml ?? '');
  const config = configFromToml(text);
  const logger = createSilentLogger();
  const redis = createRedis({ url }, { autoPipeline: true });
  const local = createLocalChannel('test', 4000);
  const platforms: ChannelAdapter[] = [];
  if (opts.channelsToml !== undefined) {
    platforms.push(...(await createChannelAdapters(config, logger)));
    if (platforms.length !== 1) throw new Error('bench: the platform channel did not start');
  }
  const idleHints = createIdleHints(); // as `baton start`: gateway and worker in one process
  const gateway = await startGatewayRole({
    config,
    idleHints,
    logger,
    redis,
    adapters: [local, ...platforms],
    routes: { 'local.test': 'main' },
  });
  const instant = createInstantProvider();
  const workerRedis = createRedis({ url }, { autoPipeline: true }); // its own connection, as `baton start`
  const worker = await startWorkerRole({
    config,
    idleHints,
    logger,
    redis: workerRedis,
    env: {},
    createProvider: () => instant,
  });
  return {
    local,
    async close() {
      await worker.close(1000);
      await gateway.close(1000);
      await deletePrefix(redis, prefix);
      await Promise.all([redis.quit(), workerRedis.quit()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
