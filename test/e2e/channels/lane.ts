// The channel e2e lane's shared setup: the fake model, a Redis prefix, a temp dir, TOML configs that point baton
// at the fake platforms, and `baton` roles as child processes (killed and cleaned up by close()).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { RedisTarget } from '../../../src/core/redis-target.ts';
import {
  type FakeModelServer,
  type RecordedRequest,
  startFakeModelServer,
} from '../../fakes/model-server.ts';
import { type BatonProcess, startBaton } from '../../helpers/baton-process.ts';
import { freePort } from '../../helpers/free-port.ts';
import { askedOf } from '../../helpers/model-requests.ts';
import { deletePrefix, testRedis, testRedisFor, uniquePrefix } from '../../helpers/redis.ts';
import { fakeModelAgentToml, redisGatewayToml } from '../../helpers/test-config.ts';

/** The authorised sender on each platform ([peer_groups]) and one who is not. */
export const ALICE = { telegram: 7, discord: '100000000000000001', slack: 'U0ALICE' } as const;
export const MALLORY = { telegram: 666, discord: '100000000000000666', slack: 'U0MALLORY' } as const;

/** The text the fake model holds its answer for (until the client goes away): a turn to /stop. */
export const HOLD = 'hold on';

export interface Lane {
  model: FakeModelServer;
  prefix: string;
  redis: Redis;
  /** Requests whose newest user message contains `text`. */
  requestsWith(text: string): RecordedRequest[];
  /** A complete config: Redis, gateway on a free port, the fake model, agent `main`, then `channels`. */
  writeConfig(name: string, channels: string): Promise<{ path: string; port: number }>;
  /** Starts `baton <role> --config <path>` and resolves once it printed that it runs. */
  start(role: 'start' | 'gateway' | 'worker', path: string): Promise<BatonProcess>;
  close(): Promise<void>;
}

const READY = {
  start: /baton gateway \+ worker running/,
  gateway: /baton gateway running/,
  worker: /baton worker running/,
};

/**
 * The fake model echoes the newest user message (`echo: <text>`), answers `long: …` with `longReply`, and
 * holds HOLD until the client disconnects.
 */
export async function createLane(name: string, longReply = '', target?: RedisTarget): Promise<Lane> {
  const model = await startFakeModelServer();
  model.respond((req) => {
    const text = askedOf(req);
    if (text === HOLD) return { text: 'too late', delayMs: 600_000 };
    if (text.startsWith('long:')) return { text: longReply };
    return { text: `echo: ${text}` };
  });
  const prefix = uniquePrefix(name);
  const redis = target ? testRedisFor(target) : testRedis();
  const dir = mkdtempSync(join(tmpdir(), `baton-e2e-${name}-`));
  const procs: BatonProcess[] = [];
  return {
    model,
    prefix,
    redis,
    requestsWith: (text) => model.requests.filter((r) => askedOf(r).includes(text)),
    async writeConfig(file, channels) {
      const port = await freePort();
      const path = join(dir, `${file}.toml`);
      writeFileSync(
        path,
        `${redisGatewayToml(prefix, port, join(dir, 'data'), target)}
[worker]
concurrency = 8
shutdown_grace_secs = 2
${fakeModelAgentToml(model.openaiBaseUrl)}${channels}`,
      );
      return { path, port };
    },
    async start(role, path) {
      const p = startBaton([role, '--config', path]);
      procs.push(p);
      await p.waitFor(READY[role], 30_000);
      return p;
    },
    async close() {
      for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.kill('SIGKILL');
      await Promise.all(procs.map((p) => p.exited));
      await model.close();
      await deletePrefix(redis, prefix);
      await redis.quit();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
