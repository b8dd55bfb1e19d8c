// The runtime in this process: a gateway with the local channel and worker roles, on real Redis and BullMQ.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { createLocalChannel, type LocalChannel } from '../../channels/local/local-adapter.ts';
import type { ActionHandler, ChannelAdapter } from '../../src/channel-host/types.ts';
import { createLiveConfig } from '../../src/config/live-config.ts';
import type { BatonConfig } from '../../src/config/types.ts';
import type { KeySpace } from '../../src/core/key-layout.ts';
import { createSilentLogger, type Logger } from '../../src/core/logger.ts';
import type { RedisTarget } from '../../src/core/redis-target.ts';
import type { ConfigDiagnostics } from '../../src/ops-api/health.ts';
import { createIdleHints, type IdleHints } from '../../src/queue/idle-hints.ts';
import { keySpaceOf } from '../../src/queue/names.ts';
import { createChannelAdapters } from '../../src/roles/channel-adapters.ts';
import { startConfigReload } from '../../src/roles/config-reload.ts';
import { startGatewayRole } from '../../src/roles/gateway-role.ts';
import { type Role, startWorkerRole } from '../../src/roles/worker-role.ts';
import type { OpsPagesWiring } from '../../src/web/ops/ops-pages-deps.ts';
import { type FakeModelServer, startFakeModelServer } from '../fakes/model-server.ts';
import { deletePrefix, REDIS_URL, redisTargetToml, testRedisFor, uniquePrefix } from './redis.ts';
import { fakeModelAgentToml, loadTestConfig } from './test-config.ts';

/** Who may talk to `main` on the local channel (everyone by default). */
export const localPeers = (peers: readonly string[] = ['*']) => `
[peer_groups.local]
channel = "local.test"
agents = ["main"]
external_peers = ${JSON.stringify(peers)}
`;
export const LOCAL_PEERS = localPeers();

/** One agent `main` on the fake model, answering the local channel; `extra` is appended (e.g. [worker]). */
export function runtimeToml(extra = '', peers: readonly string[] = ['*']): string {
  return `${fakeModelAgentToml(`\${MODEL_URI}`)}${localPeers(peers)}
${extra}`;
}

export interface RuntimeHarness {
  server: FakeModelServer;
  local: LocalChannel;
  /** The platform adapters started beside the local channel (`platformChannels`, `adapters`). */
  adapters: ChannelAdapter[];
  config: BatonConfig;
  configText: string;
  prefix: string;
  /** The prefix and partitions of the config's [redis]: build keys with the real builders from it. */
  space: KeySpace;
  redis: Redis;
  dataDir: string;
  workers: Role[];
  /** The gateway's HTTP server (ops API + channel webhooks) when `ops` was given; null otherwise. */
  opsUrl: string | null;
  /** The config file (with `reloadable`). */
  configPath: string | undefined;
  close(): Promise<void>;
}

/** `toml` may use `${MODEL_URI}`; [redis] and [gateway] are added with the test's prefix and data dir. */
export async function createRuntimeHarness(
  name: string,
  toml: string,
  opts: {
    workers?: number;
    lockDurationMs?: number;
    redisUrl?: string;
    /** Run against this Redis (a Sentinel or Cluster target): its `[redis]` section is added to the TOML. */
    redisTarget?: RedisTarget;
    actions?: ActionHandler;
    /** Platform adapters beside the local channel, built from the loaded config (e.g. createChannelAdapters). */
    adapters?: (config: BatonConfig, logger: Logger) => ChannelAdapter[] | Promise<ChannelAdapter[]>;
    /** Also start the platform adapters of the TOML's [channels] (through the runtime's factory table). */
    platformChannels?: boolean;
    /** Serve the gateway's HTTP server (ops API and channel webhooks) on a free loopback port. */
    ops?: { apiToken?: string; pages?: OpsPagesWiring };
    /** The environment the workers' model providers take their default keys from (default: none). */
    env?: Record<string, string | undefined>;
    /** Write the config to `<dataDir>/baton.toml` and reload it on a deployment reload, as `baton start` does. */
    reloadable?: boolean;
    /** What the workers tell the gateway of the conversations they left idle (default: a fresh set). */
    idleHints?: IdleHints;
  } = {},
): Promise<RuntimeHarness> {
  const server = await startFakeModelServer();
  const prefix = uniquePrefix(name);
  const dataDir = mkdtempSync(join(tmpdir(), `baton-${name}-`));
  const redisUrl = opts.redisUrl ?? REDIS_URL;
  // Literal, not interpolated: a reload re-reads the file with an empty environment.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder the test TOML uses
  const withModel = toml.replaceAll('${MODEL_URI}', server.openaiBaseUrl);
  const toLoad = opts.redisTarget
    ? `${withModel}\n[redis]\n${redisTargetToml(opts.redisTarget)}\n`
    : withModel;
  const {
    config,
    load: loaded,
    text: configText,
  } = loadTestConfig(toLoad, {
    dataDir,
    redisPrefix: prefix,
    redisUrl,
  });
  const logger = createSilentLogger();
  // Through the config's [redis], so a test whose TOML names sentinels talks to them too.
  const redis = testRedisFor(config.redis);
  const local = createLocalChannel('test');
  const adapters = [
    ...(opts.platformChannels ? await createChannelAdapters(config, logger) : []),
    ...((await opts.adapters?.(config, logger)) ?? []),
  ];
  const gatewayConfig = opts.ops
    ? { ...config, gateway: { ...config.gateway, port: 0, api_token: opts.ops.apiToken } }
    : config;
  const configPath = opts.reloadable ? join(dataDir, 'baton.toml') : undefined;
  if (configPath) writeFileSync(configPath, configText);
  const live = configPath ? createLiveConfig(config) : undefined;
  // As `baton start`: /healthz reports the diagnostics of the load in effect.
  let inEffect: ConfigDiagnostics = loaded;
  // As `baton start`: the workers tell the gateway which conversations they left idle.
  const idleHints = opts.idleHints ?? createIdleHints();
  const gateway = await startGatewayRole({
    config: gatewayConfig,
    idleHints,
    ...(live ? { live } : {}),
    ...(opts.ops ? { ops: () => inEffect } : {}),
    logger,
    redis,
    adapters: [local, ...adapters],
    routes: { 'local.test': 'main' },
    ...(opts.actions ? { actions: opts.actions } : {}),
    ...(opts.ops?.pages || configPath
      ? { opsPages: { ...(configPath ? { configPath } : {}), ...opts.ops?.pages } }
      : {}),
  });
  const workers: Role[] = [];
  // As `baton start`: each worker role on a command connection of its own (role-process.ts).
  const workerClients: Redis[] = [];
  for (let i = 0; i < (opts.workers ?? 1); i++) {
    const workerRedis = testRedisFor(config.redis);
    workerClients.push(workerRedis);
    workers.push(
      await startWorkerRole({
        config,
        idleHints,
        ...(live ? { live } : {}),
        logger,
        redis: workerRedis,
        env: opts.env ?? {},
        ...(opts.lockDurationMs ? { lockDurationMs: opts.lockDurationMs } : {}),
      }),
    );
  }
  const reload =
    configPath && live
      ? await startConfigReload({
          role: 'start',
          configPath,
          env: {},
          live,
          logger,
          redis,
          signals: { onReload: () => {} },
          say: () => {},
          onApplied: (next) => {
            inEffect = next;
          },
        })
      : undefined;
  return {
    server,
    local,
    configPath,
    adapters,
    config,
    configText,
    prefix,
    space: keySpaceOf(config.redis),
    redis,
    dataDir,
    workers,
    opsUrl: gateway.opsUrl,
    async close() {
      await reload?.close();
      for (const w of workers) await w.close(1000);
      await gateway.close(1000);
      await server.close();
      await deletePrefix(redis, prefix);
      await Promise.all([redis, ...workerClients].map((c) => c.quit().catch(() => c.disconnect())));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A fake-model responder that answers `echo: <last user message>` (after `delayMs` for slow ones). */
export function echoResponder(delayFor: (text: string) => number = () => 0) {
  return (req: { body: { messages?: Array<Record<string, unknown>> } }) => {
    const users = (req.body.messages ?? []).filter((m) => m.role === 'user');
    const text = String(users.at(-1)?.content ?? '');
    const delayMs = delayFor(text);
    return { text: `echo: ${text}`, ...(delayMs ? { delayMs } : {}) };
  };
}
