// Starts the ops API on port 0 against real Redis and real BullMQ queues, with a per-file key prefix.
import type { Redis } from 'ioredis';
import type { BatonConfig } from '../../../src/config/types.ts';
import { createSilentLogger, type Logger } from '../../../src/core/logger.ts';
import { type AbortBus, createAbortBus } from '../../../src/fleet/abort-bus.ts';
import type { ConfigDiagnostics } from '../../../src/ops-api/health.ts';
import { createOpsDeps } from '../../../src/ops-api/ops-deps.ts';
import { type OpsServerDeps, startOpsServer } from '../../../src/ops-api/ops-server.ts';
import { deletePrefix, testRedis } from '../../helpers/redis.ts';
import { configFromToml } from '../../helpers/test-config.ts';

export interface OpsHarness {
  url: string;
  config: BatonConfig;
  redis: Redis;
  prefix: string;
  /** The bus the API publishes on; tests register "worker" controllers on it (it goes through Redis pub/sub). */
  abortBus: AbortBus;
  deps: OpsServerDeps;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  post(path: string, init?: { body?: string; headers?: Record<string, string> }): Promise<Response>;
  close(): Promise<void>;
}

export interface OpsHarnessOptions {
  prefix: string;
  /** The config's TOML (see testConfig); ignored with `loaded`. */
  toml?: string;
  /** A config already loaded (e.g. one whose load has errors, with `load`). */
  loaded?: BatonConfig;
  load?: ConfigDiagnostics;
  logger?: Logger;
  /** Replace individual dependencies (e.g. an unreachable Redis). */
  override?: (deps: OpsServerDeps) => OpsServerDeps;
}

/** `toml` loaded with the test Redis under `prefix` and `gateway.data_dir` = `dataDir`, unless it sets them. */
export function testConfig(prefix: string, toml = '', dataDir = '/tmp/baton-test'): BatonConfig {
  return configFromToml(toml, { redisPrefix: prefix, dataDir });
}

export async function startOpsHarness(o: OpsHarnessOptions): Promise<OpsHarness> {
  const base = o.loaded ?? testConfig(o.prefix, o.toml);
  // Port 0 (a free port) is not a value a config file may hold.
  const config: BatonConfig = { ...base, gateway: { ...base.gateway, port: 0 } };
  const logger = o.logger ?? createSilentLogger();
  const redis = testRedis();
  const subscriber = testRedis();
  const abortBus = createAbortBus(redis, subscriber, o.prefix, logger);
  const built = createOpsDeps({
    config,
    redis,
    logger,
    load: o.load ?? { diagnostics: [], droppedSections: [] },
    abortBus,
    probeTimeoutMs: 500,
  });
  const deps = o.override ? o.override(built) : built;
  const server = await startOpsServer(deps);
  const call = (path: string, init: RequestInit) => fetch(`${server.url}${path}`, init);
  return {
    url: server.url,
    config,
    redis,
    prefix: o.prefix,
    abortBus,
    deps,
    get: (path, headers = {}) => call(path, { headers }),
    post: (path, init = {}) =>
      call(path, {
        method: 'POST',
        headers: init.headers ?? {},
        ...(init.body !== undefined ? { body: init.body } : {}),
      }),
    async close() {
      await server.close();
      await abortBus.close();
      await deletePrefix(redis, o.prefix);
      redis.disconnect();
      subscriber.disconnect();
    },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: tests check response bodies field by field with expect().
export type JsonBody = Record<string, any>;

export async function jsonOf(res: Response): Promise<JsonBody> {
  return (await res.json()) as JsonBody;
}
