// A deployment in this process for live-view resilience tests: gateway and worker roles on one Redis prefix, one
// fake Telegram bot and one fake model. A test adds, stops or crashes any of them mid-turn. Each gateway runs its
// own grammy adapter (the channel lease lets one of them poll and send) and counts the writes it made.

import type { Redis } from 'ioredis';
import type { ChannelAdapter } from '../../src/channel-host/types.ts';
import type { BatonConfig } from '../../src/config/types.ts';
import { createSilentLogger } from '../../src/core/logger.ts';
import { runningTurnsKeyOf } from '../../src/fleet/running-turns.ts';
import { inboxActiveKey, keySpaceOf, outboxStreamKeyOf } from '../../src/queue/names.ts';
import { createChannelAdapters } from '../../src/roles/channel-adapters.ts';
import { type GatewayRole, startGatewayRole } from '../../src/roles/gateway-role.ts';
import { type Role, startWorkerRole } from '../../src/roles/worker-role.ts';
import { type FakeModelServer, startFakeModelServer } from '../fakes/model-server.ts';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.ts';
import { everyPartition } from './key-space.ts';
import { deletePrefix, testRedis, uniquePrefix } from './redis.ts';
import { loadTestConfig, mainWithWriterToml } from './test-config.ts';

export const KEY = 'telegram.home';

/** A message of the bot in one chat: every text it showed, oldest first. */
export interface BotMessage {
  id: string;
  versions: string[];
}

/** live.md §5's defaults, written out: a preview after 0.8 s of text, edits at most once a second. */
export const LIVE_KEYS = `stream_after_ms = 800
stream_edit_interval_ms = 1000
progress_after_ms = 2000`;

/** Quick lease hand-over: a standby retries every 200 ms, a crashed holder's lease lapses after 3 s. */
const LEASE = { ttlMs: 3000, renewMs: 1000, retryMs: 200 };

const toml = (
  tg: FakeTelegram,
  model: FakeModelServer,
  channelKeys: string,
) => `${mainWithWriterToml(model.openaiBaseUrl, { mainExtra: `channels = ["${KEY}"]` })}
[channels.telegram.home]
enabled = true
bot_token = "TF"
api_base_url = "${tg.url}/"
${channelKeys}

[peer_groups.tg]
channel = "telegram"
agents = ["main"]
external_peers = ["*"]
`;

export interface FleetGateway {
  role: GatewayRole;
  /** Successful posts and edits this gateway made on the platform. */
  writes(): number;
  /** Stops its channels without releasing their leases, as a crashed process would. */
  crash(): void;
}

export interface FleetWorker {
  /** Stops taking turns; a running turn gets `graceMs`, then is aborted and handed back to the queue. */
  stop(graceMs: number): Promise<void>;
}

export interface TelegramFleet {
  tg: FakeTelegram;
  model: FakeModelServer;
  redis: Redis;
  prefix: string;
  config: BatonConfig;
  /** The config as TOML, for `baton` processes joining the fleet. */
  configText: string;
  gateway(): Promise<FleetGateway>;
  worker(opts?: { lockDurationMs?: number }): Promise<FleetWorker>;
  /** Closes a gateway now (releasing its lease); the fleet's close skips it. */
  stop(gateway: FleetGateway): Promise<void>;
  /** A user message in chat `chat` (a private chat: the chat id is the user id). */
  say(chat: number, text: string): void;
  /** The bot's messages in `chat` that the user still sees, every version of each. */
  visible(chat: number): BotMessage[];
  /** Every outbox entry queued so far was handled and acknowledged (the gateway deletes acked entries). */
  outboxDrained(): Promise<boolean>;
  /** No conversation has a message waiting or a turn running. */
  turnsIdle(): Promise<boolean>;
  close(): Promise<void>;
}

export async function startTelegramFleet(name: string, channelKeys = LIVE_KEYS): Promise<TelegramFleet> {
  const tg = await startFakeTelegram({ token: 'TF' });
  const model = await startFakeModelServer();
  const redis = testRedis();
  const prefix = uniquePrefix(name);
  const { config, text: configText } = loadTestConfig(toml(tg, model, channelKeys), { redisPrefix: prefix });
  const space = keySpaceOf(config.redis);
  const logger = createSilentLogger();
  const roles = new Set<Role>();
  const stopRole = async (role: Role, graceMs: number) => {
    if (roles.delete(role)) await role.close(graceMs);
  };

  return {
    tg,
    model,
    redis,
    prefix,
    config,
    configText,
    async gateway() {
      const inner = (await createChannelAdapters(config, logger)).find((a) => a.key === KEY)!;
      let writes = 0;
      const counted = async <T>(p: Promise<T>) => {
        const v = await p;
        writes++;
        return v;
      };
      const adapter: ChannelAdapter = {
        key: inner.key,
        maxMessageLength: inner.maxMessageLength,
        start: (host) => inner.start(host),
        stop: () => inner.stop(),
        send: (to, msg) => counted(inner.send(to, msg)),
        edit: (ref, msg) => counted(inner.edit(ref, msg)),
        delete: (ref) => inner.delete!(ref),
        typing: (to) => inner.typing(to),
      };
      const kill = new AbortController();
      const role = await startGatewayRole({
        config,
        logger,
        redis,
        adapters: [adapter],
        lease: { ...LEASE, kill: kill.signal },
      });
      roles.add(role);
      return { role, writes: () => writes, crash: () => kill.abort() };
    },
    async worker(opts = {}) {
      const role = await startWorkerRole({ config, logger, redis, env: {}, ...opts });
      roles.add(role);
      return { stop: (graceMs) => stopRole(role, graceMs) };
    },
    stop: (g) => stopRole(g.role, 1000),
    say: (chat, text) => void tg.injectMessage({ chat, from: chat, text }),
    visible: (chat) =>
      tg.sentTo(chat).map((s) => ({
        id: String(s.message.message_id),
        versions: s.versions.map((v) => v.text),
      })),
    outboxDrained: async () =>
      (await everyPartition(space, (n) => redis.xlen(outboxStreamKeyOf(space, KEY, n)))) === 0,
    turnsIdle: async () =>
      (await everyPartition(space, (n) => redis.scard(inboxActiveKey(space, n)))) === 0 &&
      (await everyPartition(space, (n) => redis.hlen(runningTurnsKeyOf(space, n)))) === 0,
    async close() {
      for (const r of [...roles].reverse()) await stopRole(r, 1000);
      await model.close();
      await tg.close();
      await deletePrefix(redis, prefix);
      await redis.quit();
    },
  };
}

/** An answer of plain words (nothing a platform escapes), streamed in `n` pieces. */
export const words = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `${tag}${i} `);
export const lastText = (m: BotMessage) => (m.versions.at(-1) ?? '').trim();
