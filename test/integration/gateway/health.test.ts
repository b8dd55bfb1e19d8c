// GET /healthz against real Redis and BullMQ: ok, degraded by config errors, down channels and an unreachable Redis.
import { Queue } from 'bullmq';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfigText } from '../../../src/config/index.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createRedis } from '../../../src/core/redis.ts';
import { createChannelPresence } from '../../../src/fleet/channel-presence.ts';
import { TURNS_QUEUE, turnsQueuePrefix } from '../../../src/queue/names.ts';
import { createQueueStats } from '../../../src/queue/queue-stats.ts';
import { spaceOf } from '../../helpers/key-space.ts';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { jsonOf, type OpsHarness, startOpsHarness } from './ops-harness.ts';

const prefix = uniquePrefix('gateway-health');
const cleanup = testRedis();
let h: OpsHarness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});
afterAll(async () => {
  await deletePrefix(cleanup, prefix);
  cleanup.disconnect();
});

const TELEGRAM_HOME = `
[channels.telegram.home]
enabled = true
bot_token = "not-used"
api_base_url = "http://127.0.0.1:1"
`;

describe('GET /healthz', () => {
  it('is 200 ok with Redis latency and the real job counts of every queue', async () => {
    h = await startOpsHarness({ prefix });
    // The turns queue of partition 0 (the only one with `partitions = 1`), as the gateway's kicks make it.
    const turns = new Queue(TURNS_QUEUE, {
      connection: testRedis(),
      prefix: turnsQueuePrefix(spaceOf(prefix), 0),
    });
    await turns.add('turn', { n: 1 });
    await turns.add('later', { n: 2 }, { delay: 60_000 });
    await turns.close();

    const res = await h.get('/healthz');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await jsonOf(res);
    expect(body.status).toBe('ok');
    expect(body.problems).toBeUndefined();
    expect(body.redis.ok).toBe(true);
    expect(typeof body.redis.latency_ms).toBe('number');
    expect(Object.keys(body.queues)).toEqual(['turns', 'cron', 'delegate']);
    expect(body.queues.turns).toEqual({ waiting: 1, active: 0, delayed: 1, failed: 0, completed: 0 });
    expect(body.queues.delegate).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 0, completed: 0 });
    expect(body.channels).toEqual({});
  });

  it('is 503 degraded with the exact config errors and dropped sections', async () => {
    const toml = `
schema_version = 3

[redis]
url = "${REDIS_URL}"
prefix = "${prefix}"

[risk_profiles.p]

[agents.a]
risk_profile = "p"

[cost]
warn_at_percent = 101
`;
    const loaded = loadConfigText(toml, {});
    expect(loaded.config).not.toBeNull();
    h = await startOpsHarness({ prefix, loaded: loaded.config!, load: loaded });
    const res = await h.get('/healthz');
    expect(res.status).toBe(503);
    const body = await jsonOf(res);
    expect(body.status).toBe('degraded');
    expect(body.config_errors).toEqual([
      "Invalid config at 'cost.warn_at_percent': must be between 0 and 100",
    ]);
    expect(body.dropped_sections).toEqual(['cost']);
    expect(body.problems).toEqual(["config section 'cost' dropped", '1 config error']);
    // Everything else is still reported: the API is up to repair the file.
    expect(body.redis.ok).toBe(true);
    expect(body.queues.turns).toBeDefined();
  });

  it('is degraded while an expected channel has no presence key, ok while a gateway holds it', async () => {
    h = await startOpsHarness({ prefix, toml: TELEGRAM_HOME });
    const down = await h.get('/healthz');
    expect(down.status).toBe(503);
    const downBody = await jsonOf(down);
    expect(downBody.channels).toEqual({ 'telegram.home': 'down' });
    expect(downBody.problems).toEqual(["channel 'telegram.home' is down"]);
    expect(Object.keys(downBody.queues)).toContain('outbox-telegram-home');

    const presence = createChannelPresence(h.redis, prefix, createSilentLogger());
    const hold = await presence.hold('telegram.home', 'gateway-1');
    expect(await h.redis.ttl(`${prefix}:presence:telegram.home`)).toBeGreaterThan(25);
    const live = await h.get('/healthz');
    expect(live.status).toBe(200);
    expect((await jsonOf(live)).channels).toEqual({ 'telegram.home': 'live' });
    expect(await presence.liveChannels()).toEqual(['telegram.home']);

    await hold.release();
    expect((await h.get('/healthz')).status).toBe(503);
  });

  it('a release by a former holder leaves the new holder live', async () => {
    const presence = createChannelPresence(cleanup, prefix, createSilentLogger());
    const old = await presence.hold('discord.main', 'gateway-old');
    await presence.refresh('discord.main', 'gateway-new');
    await old.release();
    expect(await presence.states(['discord.main', 'slack.x'])).toEqual({
      'discord.main': 'live',
      'slack.x': 'down',
    });
  });

  it('answers 503 quickly when Redis is unreachable, and /metrics still answers', async () => {
    const unreachableUrl = 'redis://127.0.0.1:1';
    // Like production (maxRetriesPerRequest: null): a command would wait for a reconnect that never comes.
    const dead = createRedis({ url: unreachableUrl }, { lazy: true });
    dead.on('error', () => {});
    const deadQueues = createQueueStats({
      target: { url: unreachableUrl },
      space: spaceOf(prefix),
      channelKeys: [],
    });
    h = await startOpsHarness({
      prefix,
      override: (deps) => {
        void deps.queues.close();
        return { ...deps, redis: dead, queues: deadQueues };
      },
    });
    for (let i = 0; i < 2; i++) {
      const started = Date.now();
      const res = await h.get('/healthz');
      expect(Date.now() - started).toBeLessThan(2000);
      expect(res.status).toBe(503);
      const body = await jsonOf(res);
      expect(body.status).toBe('degraded');
      expect(body.redis.ok).toBe(false);
      expect(body.problems).toHaveLength(1);
      expect(body.problems[0]).toMatch(/^redis unreachable: /);
      expect(body.queues).toBeNull();
    }
    const started = Date.now();
    const metrics = await h.get('/metrics');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('\nbaton_redis_up 0\n');
    dead.disconnect();
  });
});
