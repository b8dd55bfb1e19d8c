// Two gateways, one Telegram bot: exactly one holds the channel's Redis lease and polls; when it closes, crashes
// (stops renewing without releasing) or loses the lease, the other takes over and every message gets one reply.
// Both gateway roles run in this process, each with its own grammy adapter against the same fake Bot API.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTelegramAdapter } from '../../../channels/telegram/telegram-adapter.ts';
import type { ChannelAdapter } from '../../../src/channel-host/types.ts';
import type { BatonConfig } from '../../../src/config/types.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { leaseKey } from '../../../src/fleet/channel-lease.ts';
import { createChannelPresence } from '../../../src/fleet/channel-presence.ts';
import { checkHealth } from '../../../src/ops-api/health.ts';
import {
  type GatewayRole,
  type GatewayRoleOptions,
  startGatewayRole,
} from '../../../src/roles/gateway-role.ts';
import { type Role, startWorkerRole } from '../../../src/roles/worker-role.ts';
import { type FakeModelServer, startFakeModelServer } from '../../fakes/model-server.ts';
import { type FakeTelegram, startFakeTelegram } from '../../fakes/telegram-server.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { echoResponder } from '../../helpers/runtime-harness.ts';
import { configFromToml } from '../../helpers/test-config.ts';
import { waitFor } from '../../helpers/wait.ts';

const KEY = 'telegram.home';
const logger = createSilentLogger();
const redis = testRedis();
let tg: FakeTelegram;
let model: FakeModelServer;
let prefix: string;
let config: BatonConfig;
let worker: Role;
const gateways: GatewayRole[] = [];

/** A gateway's own adapter, recording whether it runs (started and not stopped). */
interface Tracked {
  adapter: ChannelAdapter;
  running: () => boolean;
  starts: () => number;
}
function tracked(): Tracked {
  const inner = createTelegramAdapter({ alias: 'home', botToken: 'T1', apiBaseUrl: `${tg.url}/`, logger });
  let running = false;
  let starts = 0;
  const adapter: ChannelAdapter = {
    key: inner.key,
    maxMessageLength: inner.maxMessageLength,
    async start(host) {
      await inner.start(host);
      running = true;
      starts++;
    },
    async stop() {
      running = false;
      await inner.stop();
    },
    send: (to, msg) => inner.send(to, msg),
    edit: (ref, msg) => inner.edit(ref, msg),
    typing: (to) => inner.typing(to),
  };
  return { adapter, running: () => running, starts: () => starts };
}

async function gateway(t: Tracked, lease?: GatewayRoleOptions['lease']): Promise<GatewayRole> {
  const g = await startGatewayRole({
    config,
    logger,
    redis,
    adapters: [t.adapter],
    ...(lease ? { lease } : {}),
  });
  gateways.push(g);
  return g;
}

const holderNow = () => redis.get(leaseKey(prefix, KEY));
const replies = () => tg.sentTo(7).map((s) => s.message.text);
const send = (from: number, to: number) => {
  for (let i = from; i <= to; i++) tg.injectMessage({ chat: 7, from: 7, text: `m${i}` });
};
const expected = (n: number) => Array.from({ length: n }, (_, i) => `echo: m${i + 1}`);
async function allReplies(n: number): Promise<void> {
  await waitFor(() => replies().length >= n, 60_000, `${n} replies`);
  // Nothing more is on its way: every update is confirmed and every turn answered.
  expect(replies()).toEqual(expected(n));
}

beforeEach(async () => {
  tg = await startFakeTelegram({ token: 'T1' });
  model = await startFakeModelServer();
  model.respond(echoResponder());
  prefix = uniquePrefix('lease');
  config = configFromToml(
    `[providers.models.custom.fake]\nuri = "${model.openaiBaseUrl}"\nmodel = "fake-model"\n
[reliability]\nprovider_retries = 0\n\n[risk_profiles.default]\n
[agents.main]\nmodel_provider = "custom.fake"\nrisk_profile = "default"\n
[channels.telegram.home]\nenabled = true\nbot_token = "T1"\napi_base_url = "${tg.url}/"\n
[peer_groups.tg]\nchannel = "telegram"\nagents = ["main"]\nexternal_peers = ["7"]\n`,
    { redisPrefix: prefix },
  );
  worker = await startWorkerRole({ config, logger, redis, env: {} });
});
afterEach(async () => {
  for (const g of gateways.splice(0)) await g.close(1000);
  await worker.close(1000);
  await model.close();
  await tg.close();
  await deletePrefix(redis, prefix);
});

describe('channel lease', () => {
  it('starts the adapter on one gateway only; the lease key and /healthz name it', async () => {
    const a = tracked();
    const b = tracked();
    const ga = await gateway(a);
    const gb = await gateway(b);
    expect([a.running(), b.running()]).toEqual([true, false]);
    expect(await holderNow()).toBe(ga.holder);
    expect(gb.holder).not.toBe(ga.holder);

    send(1, 3);
    await allReplies(3);
    expect(b.starts()).toBe(0);

    const presence = createChannelPresence(redis, prefix, logger);
    const report = await checkHealth({
      redis,
      queues: { counts: async () => ({}), close: async () => {} } as never,
      channels: () => presence.states([KEY]),
      channelHolders: () => presence.holders([KEY]),
      diagnostics: () => ({ diagnostics: [], droppedSections: [] }),
      timeoutMs: 1000,
      redact: (t) => t,
    });
    expect(report.channels).toEqual({ [KEY]: 'live' });
    expect(report.channel_holders).toEqual({ [KEY]: ga.holder });
  });

  it('hands the channel over when the holder closes: released at once, nothing lost or repeated', async () => {
    const a = tracked();
    const b = tracked();
    const ga = await gateway(a);
    const gb = await gateway(b);
    expect(b.running()).toBe(false);
    send(1, 5);
    await waitFor(() => replies().length >= 2, 30_000, 'first replies');
    const closing = ga.close(1000);
    send(6, 10);
    await closing;
    expect(a.running()).toBe(false);
    await waitFor(async () => b.running() && (await holderNow()) === gb.holder, 5_000, 'b holds the channel');
    send(11, 12);
    await allReplies(12);
  });

  it('takes over within 15 s from a holder that crashed (stopped renewing, lease not released)', async () => {
    const a = tracked();
    const b = tracked();
    const kill = new AbortController();
    const ga = await gateway(a, { kill: kill.signal });
    const gb = await gateway(b);
    send(1, 5);
    await waitFor(() => replies().length >= 2, 30_000, 'first replies');
    kill.abort();
    await waitFor(() => !a.running(), 10_000, 'a stopped');
    const crashedAt = Date.now();
    expect(await holderNow()).toBe(ga.holder); // not released: b must wait for it to expire
    send(6, 10);
    await waitFor(async () => b.running() && (await holderNow()) === gb.holder, 15_000, 'b takes over');
    expect(Date.now() - crashedAt).toBeLessThan(15_000);
    send(11, 12);
    await allReplies(12);
  });

  it('a holder whose lease was taken (renewal too late) stops its adapter at once and stands by', async () => {
    const a = tracked();
    const b = tracked();
    // a's lease lives 1 s but a renews only every 4 s, as after a long pause; b retries every 200 ms.
    const ga = await gateway(a, { ttlMs: 1000, renewMs: 4000 });
    const gb = await gateway(b, { retryMs: 200 });
    expect(a.running()).toBe(true);
    await waitFor(async () => b.running() && (await holderNow()) === gb.holder, 10_000, 'b takes the lease');
    await waitFor(() => !a.running(), 10_000, 'a stops after its renewal fails');
    expect(await holderNow()).toBe(gb.holder);
    expect(ga.holder).not.toBe(gb.holder);
    send(1, 4);
    await allReplies(4);
    expect(a.starts()).toBe(1);
  });
});
