// Two cron processes on one Redis, a schedule every second for ~10 s, one restart: every fire runs exactly once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeModelServer, startFakeModelServer } from '../../fakes/model-server.ts';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { waitFor } from '../../helpers/wait.ts';
import { readDeliveries } from './recording-outbox.ts';
import { type CronProcess, startCronProcess } from './spawned-process.ts';

const TOML = `
[providers.models.custom.fake]
uri = "\${MODEL_URI}"
model = "fake-model"

[reliability]
provider_retries = 0
scheduler_retries = 0

[risk_profiles.default]

[agents.main]
model_provider = "custom.fake"
risk_profile = "default"
cron_jobs = ["tick"]

[cron.tick]
job_type = "agent"
name = "Ticker"
prompt = "say tick"
schedule = { kind = "every", every_ms = 1000 }
delivery = { channel = "telegram.main", recipient = "chat-42" }
`;

const FIRE_KEY = /^cron:repeat:cfg-tick:(\d+)$/;

let server: FakeModelServer;
let redis: Redis;
let prefix: string;
let dataDir: string;
let env: Record<string, string>;
const outboxKey = () => `${prefix}:test-chat`;

beforeAll(async () => {
  server = await startFakeModelServer();
  redis = testRedis();
  prefix = uniquePrefix('cron-two');
  dataDir = mkdtempSync(join(tmpdir(), 'baton-cron-two-'));
  env = {
    CRON_TOML: TOML,
    MODEL_URI: server.openaiBaseUrl,
    PREFIX: prefix,
    DATA_DIR: dataDir,
    OUTBOX_KEY: outboxKey(),
    REDIS_URL,
  };
});
afterAll(async () => {
  await server.close();
  await deletePrefix(redis, prefix);
  await redis.quit();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Fire times (the millis in the scheduler's job id) of everything delivered so far. */
async function fireTimes(): Promise<number[]> {
  return (await readDeliveries(redis, outboxKey())).map((d) =>
    Number(FIRE_KEY.exec(d.key)?.[1] ?? Number.NaN),
  );
}

describe('cron across two worker processes', () => {
  it('runs an every-second schedule exactly once per occurrence, through a restart, and delivers to the chat', async () => {
    let n = 0;
    server.respond(() => ({ text: `tick ${++n}` }));
    // Both processes sync the same schedule at the same moment.
    let [a, b]: CronProcess[] = await Promise.all([startCronProcess(env), startCronProcess(env)]);
    let restartedAt = 0;
    try {
      await waitFor(async () => (await fireTimes()).length >= 5, 15_000, '5 fires');
      await a!.stop();
      restartedAt = Date.now();
      a = await startCronProcess(env); // a restart in the middle: it syncs again
      const first = Math.min(...(await fireTimes()));
      await waitFor(async () => (await fireTimes()).some((t) => t >= first + 9000), 15_000, 'the 10th fire');
    } finally {
      await Promise.all([a?.stop(), b?.stop()]);
    }

    const deliveries = await readDeliveries(redis, outboxKey());
    const times = await fireTimes();
    const first = Math.min(...times);
    const window = times.filter((t) => t < first + 10_000).sort((x, y) => x - y);
    // Exactly 10 occurrences in 10 seconds, one second apart, each run once.
    expect(window).toHaveLength(10);
    expect(window.map((t) => t - first)).toEqual([0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000]);
    // No fire was delivered twice, and no agent run happened without its delivery (or twice for one fire).
    expect(new Set(deliveries.map((d) => d.key)).size).toBe(deliveries.length);
    expect(server.requests).toHaveLength(deliveries.length);
    expect(new Set(deliveries.map((d) => d.text)).size).toBe(deliveries.length);
    // The prompt the model saw, and the chat the answers reached; both processes did work.
    expect(server.requests[0]!.body.messages?.at(-1)).toMatchObject({
      role: 'user',
      content: '[cron:tick Ticker] say tick',
    });
    for (const d of deliveries) expect(d.to).toEqual({ channel: 'telegram.main', chat: 'chat-42' });
    // The window spans the restart. (Which process takes each fire is BullMQ's choice: one may take all.)
    expect(window.some((t) => t < restartedAt)).toBe(true);
    expect(window.some((t) => t > restartedAt)).toBe(true);
  }, 60_000);
});
