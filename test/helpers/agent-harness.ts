// Runs real agent turns against real Redis and the fake model server, from a TOML config text.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Redis } from 'ioredis';
import { runTurn, type TurnResult } from '../../src/agent/run-turn.ts';
import type { ApprovalAsker } from '../../src/approval/gate.ts';
import type { Recipient } from '../../src/channel-host/types.ts';
import { createLogger } from '../../src/core/logger.ts';
import { createRuntimeServices } from '../../src/roles/services.ts';
import type { RuntimeServices } from '../../src/run-contract/run-context.ts';
import { toolResultsOf } from '../fakes/model-requests.ts';
import { type FakeModelServer, type RecordedRequest, startFakeModelServer } from '../fakes/model-server.ts';
import { deletePrefix, testRedis, uniquePrefix } from './redis.ts';
import { configFromToml } from './test-config.ts';

export interface AgentHarness {
  server: FakeModelServer;
  /** The services turns run with now (see `extend`). */
  readonly services: RuntimeServices;
  /**
   * Services are immutable: a test that wires in a scheduler, a background queue or a live config gets a copy
   * with them, used by every later turn (as a role would have built them in from the start).
   */
  extend(patch: Partial<RuntimeServices>): RuntimeServices;
  redis: Redis;
  prefix: string;
  dataDir: string;
  /** Every log line as parsed JSON. */
  logs: Record<string, unknown>[];
  turn(agent: string, message: string, opts?: TurnOptions): Promise<TurnResult>;
  close(): Promise<void>;
}

export interface TurnOptions {
  session?: string;
  asker?: ApprovalAsker | null;
  signal?: AbortSignal;
  origin?: Recipient;
}

/**
 * `toml` may use `${MODEL_URI}` (the fake's OpenAI-compatible base URL), `${MODEL_ROOT}` (its root, for
 * anthropic and ollama entries), `${DATA_DIR}` and `${PREFIX}`.
 * Without them, `redis.url`/`redis.prefix` (the test's prefix) and `gateway.data_dir` are added.
 */
export async function createAgentHarness(
  name: string,
  toml: string,
  opts: {
    logLevel?: string /** A model API elsewhere (benchmarks), used as `${MODEL_URI}`. */;
    modelUri?: string;
  } = {},
): Promise<AgentHarness> {
  const server = await startFakeModelServer();
  const prefix = uniquePrefix(name);
  const dataDir = mkdtempSync(join(tmpdir(), `baton-${name}-`));
  const env = {
    MODEL_URI: opts.modelUri ?? server.openaiBaseUrl,
    MODEL_ROOT: server.url,
    DATA_DIR: dataDir,
    PREFIX: prefix,
  };
  const config = configFromToml(toml, { env, dataDir, redisPrefix: prefix });
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logs.push(JSON.parse(line));
      cb();
    },
  });
  const logger = createLogger({
    level: opts.logLevel ?? 'debug',
    secrets: config.secrets,
    destination: sink,
  });
  const redis = testRedis();
  let services = createRuntimeServices({ config, redis, logger, env: {} });
  let n = 0;
  return {
    server,
    get services() {
      return services;
    },
    extend(patch) {
      services = Object.freeze({ ...services, ...patch });
      return services;
    },
    redis,
    prefix,
    dataDir,
    logs,
    turn: (agent, message, opts = {}) =>
      runTurn(services, {
        agentAlias: agent,
        sessionKey: opts.session ?? `test-session-${++n}`,
        sender: 'test:user',
        message,
        asker: opts.asker ?? null,
        signal: opts.signal ?? new AbortController().signal,
        ...(opts.origin ? { origin: opts.origin } : {}),
      }),
    async close() {
      await server.close();
      await deletePrefix(redis, prefix);
      await redis.quit();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The model-visible text of the tool result for `toolCallId` in a recorded request (either API format). */
export function toolResultIn(req: RecordedRequest, toolCallId: string): string | undefined {
  return toolResultsOf(req).find((r) => r.toolCallId === toolCallId)?.content;
}
