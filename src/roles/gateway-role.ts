// The gateway role: channel adapters in and out (host → turns queue; outbox → platform).
import type { Redis } from 'ioredis';
import { createApprovalStore } from '../approval/approval-store.ts';
import { createAttachmentIntake } from '../channel-host/attachment-intake.ts';
import { createChannelHost } from '../channel-host/host.ts';
import type { ActionHandler, ChannelAdapter } from '../channel-host/types.ts';
import { isWebChatEndpoint } from '../channel-host/web-chat.ts';
import { createApprovalBroker } from '../chat-actions/approval-broker.ts';
import { createApprovalCards } from '../chat-actions/approval-cards.ts';
import { createChatCommands } from '../chat-actions/chat-commands.ts';
import type { LiveConfig } from '../config/live-config.ts';
import { channelOf } from '../config/lookup.ts';
import type { BatonConfig } from '../config/types.ts';
import { newWorkerId } from '../core/ids.ts';
import type { Logger } from '../core/logger.ts';
import { createTextRedactor } from '../core/redact.ts';
import { createRedis } from '../core/redis.ts';
import { createAbortBus } from '../fleet/abort-bus.ts';
import { DEFAULT_LEASE_TIMINGS, type LeaseTimings } from '../fleet/channel-lease.ts';
import { createChannelPresence } from '../fleet/channel-presence.ts';
import { createMetricsStore } from '../fleet/metrics-store.ts';
import { createRefusedSenders } from '../fleet/refused-senders.ts';
import { subscribeTyping } from '../fleet/typing-signals.ts';
import { DEFAULT_MAX_ATTACHMENT_MB, MIB } from '../media/attachment.ts';
import { createBlobStore } from '../media/blob-store.ts';
import type { ConfigDiagnostics } from '../ops-api/health.ts';
import { createOpsDeps } from '../ops-api/ops-deps.ts';
import { startOpsServer } from '../ops-api/ops-server.ts';
import { createApprovalDelivery } from '../queue/approval-delivery.ts';
import { createConversationInbox } from '../queue/conversation-inbox.ts';
import type { IdleHints } from '../queue/idle-hints.ts';
import { keySpaceOf } from '../queue/names.ts';
import { createReplyOutbox } from '../queue/reply-outbox.ts';
import { startReplyPump } from '../queue/reply-pump.ts';
import { createTurnQueue } from '../queue/turn-queue.ts';
import type { OpsPagesWiring } from '../web/ops/ops-pages-deps.ts';
import { createPeerAdmitter, createPolicyEditor } from '../web/ops/policy-editor.ts';
import { registerWeb } from '../web/register-web.ts';
import { type ChannelRunner, startChannelRunner } from './channel-runner.ts';
import { dialectOf } from './platforms.ts';
import { createTurnIngest } from './turn-ingest.ts';
import type { Role } from './worker-role.ts';

export interface GatewayRoleOptions {
  config: BatonConfig;
  /** The reloadable config: routing and peer checks read it per message; absent: `config` is fixed. */
  live?: LiveConfig;
  logger: Logger;
  redis: Redis;
  adapters: ChannelAdapter[];
  /** Agent per channel key for channels not in the config (the local test channel). */
  routes?: Record<string, string>;
  /** Serve the operations API on [gateway] host/port, reporting these config diagnostics (a getter: after reloads). */
  ops?: ConfigDiagnostics | (() => ConfigDiagnostics);
  /** Where button presses go; absent: the approvals broker (presses and token replies). */
  actions?: ActionHandler;
  /** Channel lease timings (tests shorten them) and a kill switch: when aborted, this gateway stops its channels
   * without releasing their leases, as a crashed process would. */
  lease?: Partial<LeaseTimings> & { kill?: AbortSignal };
  /** The operator pages' config path and editor (src/web/ops). */
  opsPages?: OpsPagesWiring;
  /** Conversations a worker in this process saw go idle: their next message kicks right behind its ingest. */
  idleHints?: IdleHints;
}

export interface GatewayRole extends Role {
  /** The ops server's base URL (channel webhooks are served there too); null when it is not served. */
  opsUrl: string | null;
  /** This gateway's id: the value of the presence/lease keys of the channels it holds. */
  readonly holder: string;
}

export async function startGatewayRole(opts: GatewayRoleOptions): Promise<GatewayRole> {
  const { config, logger, redis } = opts;
  const target = config.redis;
  const { prefix } = target;
  const space = keySpaceOf(target);
  const inbox = createConversationInbox(redis, space, logger);
  // The early kick's queues share the command connection, only where a worker of this process gives hints.
  const turns = createTurnQueue(target, space, opts.idleHints ? redis : undefined);
  const redact = createTextRedactor(config.secrets);
  const subscriber = createRedis(target);
  subscriber.on('error', () => {});
  const abortBus = createAbortBus(redis, subscriber, prefix, logger);
  const outbox = createReplyOutbox(redis, space, redact);
  const metrics = createMetricsStore(redis, prefix, logger);
  // Given the metrics, the decision this gateway wins is counted (prompt-to-decision time included).
  const approvals = createApprovalStore({ redis, prefix, logger, metrics });
  const cards = createApprovalCards({ store: approvals, dialectOf, logger });
  const actions =
    opts.actions ??
    createApprovalBroker({
      // Who may answer is read per answer: a reload that removes a peer takes effect at once.
      config: {
        get peer_groups() {
          return (opts.live?.current() ?? config).peer_groups;
        },
      },
      store: approvals,
      delivery: createApprovalDelivery(redis, space),
      dialectOf,
      outbox,
      logger,
    });
  const host = createChannelHost({
    config,
    ...(opts.live ? { currentConfig: opts.live.current } : {}),
    logger,
    ingest: createTurnIngest(inbox, turns, opts.idleHints),
    ...(opts.routes ? { routes: opts.routes } : {}),
    actions,
    commands: createChatCommands({
      config: () => opts.live?.current() ?? config,
      redis,
      logger,
      abortBus,
      outbox,
    }),
    refused: createRefusedSenders(redis, prefix, logger),
    attachments: createAttachmentIntake({
      blobs: createBlobStore(redis),
      prefix,
      logger,
      adapterOf: (channel) => opts.adapters.find((a) => a.key === channel),
      limitBytesOf: (channel) =>
        (channelOf(opts.live?.current() ?? config, channel)?.max_attachment_mb ?? DEFAULT_MAX_ATTACHMENT_MB) *
        MIB,
    }),
  });
  const holder = newWorkerId();
  const presence = createChannelPresence(redis, prefix, logger);
  const timings: LeaseTimings = { ...DEFAULT_LEASE_TIMINGS, ...opts.lease };
  const runners: ChannelRunner[] = [];
  for (const adapter of opts.adapters) {
    runners.push(
      await startChannelRunner({
        adapter,
        host,
        redis,
        prefix,
        presence,
        holder,
        timings,
        logger,
        startPump: (a) =>
          startReplyPump({
            adapter: a,
            redis,
            redisTarget: target,
            space,
            logger,
            metrics,
            consumer: holder,
            redact,
            approvals: cards,
            minIntervalMs: (channelOf(config, a.key)?.reply_min_interval_secs ?? 0) * 1000,
          }),
      }),
    );
  }
  const crashed = new Promise<void>((resolve) => {
    const kill = opts.lease?.kill;
    if (kill?.aborted) resolve();
    kill?.addEventListener('abort', () => resolve(), { once: true });
  }).then(() => Promise.all(runners.map((r) => r.close(false))));
  const byKey = new Map(opts.adapters.map((a, i) => [a.key, { adapter: a, runner: runners[i] }]));
  // Only the channels this gateway runs now: another gateway holds (and shows typing for) the others.
  const stopTyping = await subscribeTyping(subscriber, prefix, logger, async (to) => {
    const ch = byKey.get(to.channel);
    if (ch?.runner?.active()) await ch.adapter.typing(to);
  });
  // Webhook routes (Slack HTTP mode) are asked for after start, and served on the ops server's port.
  const channelRoutes = opts.adapters.flatMap((a) => a.routes?.() ?? []);
  const ops = opts.ops
    ? await startOpsServer({
        ...createOpsDeps({ config, redis, logger, load: opts.ops, abortBus, metrics }),
        channelRoutes,
        web: (app, ctx) =>
          registerWeb(app, {
            ...ctx,
            webChats: opts.adapters.filter(isWebChatEndpoint),
            opsPages: {
              ...(opts.live ? { currentConfig: opts.live.current } : {}),
              applyDelegationPolicyMode: createPolicyEditor({ redis, prefix }),
              admitPeer: createPeerAdmitter({ redis, prefix }),
              ...opts.opsPages,
            },
          }),
      })
    : null;
  if (!ops && channelRoutes.length > 0)
    logger.warn(
      { paths: channelRoutes.map((r) => r.path) },
      'channel webhook routes not served (no ops server)',
    );
  logger.info({ channels: opts.adapters.map((a) => a.key), api: ops?.url ?? null }, 'gateway role started');
  return {
    opsUrl: ops?.url ?? null,
    holder,
    async close() {
      await ops?.close();
      // Each channel: sends under way finish, the adapter stops, then the lease goes to a standby gateway.
      if (opts.lease?.kill?.aborted) await crashed;
      else for (const r of runners) await r.close(true);
      await stopTyping();
      await abortBus.close();
      subscriber.disconnect();
      await turns.close();
      await metrics.flush();
    },
  };
}
