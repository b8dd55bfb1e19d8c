// The gateway role: channel adapters in and out (host → turns queue; outbox → platform).
import type { Redis } from 'ioredis';
import { createChannelHost } from '../channel/host.ts';
import type { ChannelAdapter } from '../channel/types.ts';
import type { BatonConfig } from '../config/types.ts';
import type { Logger } from '../core/logger.ts';
import { createConversationInbox } from '../queue/conversation-inbox.ts';
import { startOutboxWorker } from '../queue/outbox-worker.ts';
import { createTurnQueue } from '../queue/turn-queue.ts';
import type { Role } from './worker-role.ts';

export interface GatewayRoleOptions {
  config: BatonConfig;
  logger: Logger;
  redis: Redis;
  adapters: ChannelAdapter[];
  /** Agent per channel key for channels not in the config (the local test channel). */
  routes?: Record<string, string>;
}

export async function startGatewayRole(opts: GatewayRoleOptions): Promise<Role> {
  const { config, logger, redis } = opts;
  const { url, prefix } = config.redis;
  const inbox = createConversationInbox(redis, prefix);
  const turns = createTurnQueue(url, prefix);
  const host = createChannelHost({
    config,
    logger,
    ingest: { accept: (c, m) => inbox.accept(c, m), kick: (c) => turns.kick(c) },
    ...(opts.routes ? { routes: opts.routes } : {}),
  });
  const senders = opts.adapters.map((adapter) =>
    startOutboxWorker({
      adapter,
      redis,
      redisUrl: url,
      prefix,
      logger,
      minIntervalMs: (config.channels[adapter.key]?.reply_min_interval_secs ?? 0) * 1000,
    }),
  );
  for (const adapter of opts.adapters) await adapter.start(host);
  logger.info({ channels: opts.adapters.map((a) => a.key) }, 'gateway role started');
  return {
    async close() {
      for (const adapter of opts.adapters) await adapter.stop();
      await Promise.all(senders.map((s) => s.close()));
      await turns.close();
    },
  };
}
