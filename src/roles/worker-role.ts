// The worker role: agent turns from the turns queue (and, as they land, cron runs and background delegations).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { outboundRedactor } from '../agent/outbound-redact.ts';
import { createTurnAttachments } from '../agent/turn-attachments.ts';
import { createApprovalStore } from '../approval/approval-store.ts';
import { createApprovalWaiter } from '../approval/approval-waiter.ts';
import { createChannelAsker } from '../approval/channel-asker.ts';
import { editReapedCard } from '../approval/expired-card.ts';
import type { LiveConfig } from '../config/live-config.ts';
import type { BatonConfig } from '../config/types.ts';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { createRedis } from '../core/redis.ts';
import { carryLegacyCost } from '../cost/legacy-ledger.ts';
import { startDelegateReaper } from '../delegation/delegate-reaper.ts';
import { createAbortBus } from '../fleet/abort-bus.ts';
import { createChannelPresence } from '../fleet/channel-presence.ts';
import { createMetricsStore } from '../fleet/metrics-store.ts';
import { createRunningTurns } from '../fleet/running-turns.ts';
import { createTypingSignals } from '../fleet/typing-signals.ts';
import { createWorkerStatusBoard } from '../fleet/worker-status.ts';
import { createApprovalDelivery } from '../queue/approval-delivery.ts';
import { sendBackgroundNotice } from '../queue/background-notice.ts';
import { createConversationInbox } from '../queue/conversation-inbox.ts';
import { createCronScheduler } from '../queue/cron-scheduler.ts';
import { startCronWorker } from '../queue/cron-worker.ts';
import { createDelegationServices } from '../queue/delegate-queue.ts';
import { createDelegateWorker } from '../queue/delegate-worker.ts';
import type { IdleHints } from '../queue/idle-hints.ts';
import { keySpaceOf } from '../queue/names.ts';
import { createReplyOutbox } from '../queue/reply-outbox.ts';
import { createTurnQueue } from '../queue/turn-queue.ts';
import { startTurnSweeper } from '../queue/turn-sweeper.ts';
import { startTurnWorker } from '../queue/turn-worker.ts';
import type { RuntimeServices } from '../run-contract/run-context.ts';
import type { ShellSandbox } from '../security/sandbox/shell-sandbox.ts';
import { sandboxReport } from '../security/sandbox/startup.ts';
import { dialectOf } from './platforms.ts';
import { createRuntimeServices } from './services.ts';

/** The reaper's first pass after a worker starts (then every 60 s). */
const REAPER_FIRST_PASS_MS = 5_000;
/** How long a closing worker waits for its last run events and counters to be written. */
const FLUSH_ON_CLOSE_MS = 2_000;

export interface WorkerRoleOptions {
  config: BatonConfig;
  /** The reloadable config (`config` is its value at start); absent: the config never changes. */
  live?: LiveConfig;
  logger: Logger;
  redis: Redis;
  env?: Record<string, string | undefined>;
  /** Replaces provider construction (benchmarks use an in-process instant model). */
  createProvider?: RuntimeServices['createProvider'];
  /** Replaces the tool-set builder (the approval benchmark adds a tool that timestamps its start). */
  buildToolSet?: RuntimeServices['buildToolSet'];
  /** Turn lock period: how fast a dead worker's conversations move elsewhere (see turn-worker.ts). */
  lockDurationMs?: number;
  sweepIntervalMs?: number;
  /** The shell sandbox (tests point it at a missing bwrap); default: `bwrap` on PATH. */
  sandbox?: ShellSandbox;
  /** Where finished drain jobs note the conversations they left idle, for a gateway in this process. */
  idleHints?: IdleHints;
}

export interface Role {
  close(graceMs: number): Promise<void>;
}

export async function startWorkerRole(opts: WorkerRoleOptions): Promise<Role> {
  const { config, logger, redis } = opts;
  const target = config.redis;
  const { prefix } = target;
  const space = keySpaceOf(target);
  const subscriber = createRedis(target);
  subscriber.on('error', () => {});
  // Everything the services hold is built first, so they are complete (and frozen) from the start.
  const metrics = createMetricsStore(redis, prefix, logger);
  // Approvals: the record and the wait here, the card on whichever gateway holds the channel (README).
  const approvalStore = createApprovalStore({ redis, prefix, logger, metrics });
  const waiter = createApprovalWaiter({ store: approvalStore, redis, logger });
  const presence = createChannelPresence(redis, prefix, logger);
  const askerDeps = {
    config: () => opts.live?.current() ?? config,
    store: approvalStore,
    waiter,
    delivery: createApprovalDelivery(redis, space),
    dialectOf,
    isLive: async (key: string) => (await presence.states([key]))[key] === 'live',
    logger,
  };
  // Cron: every worker syncs the schedulers (keyed, so concurrent syncs never double a schedule).
  const cron = createCronScheduler({
    config,
    ...(opts.live ? { currentConfig: opts.live.current } : {}),
    redis,
    redisTarget: target,
    prefix,
    logger,
  });
  const delegation = createDelegationServices({ redisTarget: target, prefix, logger });
  const services = createRuntimeServices({
    config,
    redis,
    logger,
    env: opts.env ?? process.env,
    ...(opts.live ? { live: opts.live } : {}),
    createProvider: opts.createProvider,
    buildToolSet: opts.buildToolSet,
    sandbox: opts.sandbox,
    metrics,
    approvals: { askerFor: (ctx) => createChannelAsker(askerDeps, ctx) },
    cron,
    delegation,
  });
  // Before the first turn: spend recorded under the old key layout still counts against today's caps.
  await carryLegacyCost(redis, prefix, logger).catch((err: unknown) =>
    logger.warn({ err: errorMessage(err) }, 'cost ledger: spend of the old key layout not carried over'),
  );
  // Probe once at startup: the log says how shell commands run here; /healthz reads the status published below.
  const report = await sandboxReport(config, services.sandbox);
  for (const line of report.lines)
    logger[line.level]({ worker_id: services.workerId, shell: report.shell }, line.text);
  const abortBus = createAbortBus(redis, subscriber, prefix, logger);
  const inbox = createConversationInbox(redis, space, logger, config.worker.transcript_max_entries);
  const turns = createTurnQueue(target, space);
  const outbox = createReplyOutbox(redis, space, outboundRedactor(services));
  const platformUploadBytes = (key: string) => dialectOf(key).capabilities.maxUploadBytes;
  const worker = startTurnWorker({
    ...(opts.idleHints ? { idleHints: opts.idleHints } : {}),
    services,
    attachments: createTurnAttachments({ redis, env: opts.env ?? process.env, logger }),
    inbox,
    turns,
    abortBus,
    running: createRunningTurns(redis, space, logger),
    typing: createTypingSignals(redis, prefix, logger),
    platformUploadBytes,
    redisTarget: target,
    space,
    concurrency: config.worker.concurrency,
    ...(opts.lockDurationMs ? { lockDurationMs: opts.lockDurationMs } : {}),
  });
  const sweeper = startTurnSweeper(inbox, turns, logger, opts.sweepIntervalMs);
  await cron.sync();
  // A reload that changes [cron.*] reschedules at once (every worker syncs; the ids make that idempotent).
  const stopCronReload = opts.live?.onChange(() => {
    cron.sync().catch((err: unknown) => logger.warn({ err: String(err) }, 'cron sync after reload failed'));
  });
  const cronWorker = startCronWorker({
    services,
    outbox,
    platformUploadBytes,
    redisTarget: target,
    prefix,
    concurrency: config.worker.concurrency,
  });
  const delegates = createDelegateWorker({
    services,
    delegation,
    redisTarget: target,
    prefix,
    concurrency: config.worker.background_concurrency,
  });
  const reaper = startDelegateReaper({
    redis,
    prefix,
    delegation: delegates.delegation,
    logger,
    approvals: approvalStore,
    onApprovalExpired: editReapedCard({ store: approvalStore, delivery: askerDeps.delivery, logger }),
    onTaskSettled: async (taskId) => {
      const rec = await services.tasks.get(taskId);
      const now = opts.live?.current() ?? config;
      if (rec) await sendBackgroundNotice({ redis, space, config: now, redact: services.redact }, rec);
    },
    firstPassMs: REAPER_FIRST_PASS_MS,
  });
  // Published once everything runs, so a worker that failed to start never shows as live.
  const status = await createWorkerStatusBoard(redis, prefix, logger).publish(services.workerId, {
    sandbox: report.sandbox,
    shell: report.shell,
  });
  logger.info(
    { worker_id: services.workerId, concurrency: config.worker.concurrency },
    'worker role started',
  );
  return {
    async close(graceMs) {
      stopCronReload?.();
      sweeper.stop();
      reaper.close();
      await Promise.all([worker.close(graceMs), cronWorker.close(graceMs), delegates.close()]);
      // The last run events and counters are written now, not by their timers after the caller has closed the
      // shared connection (their commands would then fail on a closed connection). Bounded: with Redis away the
      // writes wait for a reconnect, and shutdown must not.
      await Promise.race([
        Promise.all([services.events.flush?.(), metrics.flush()]),
        sleep(FLUSH_ON_CLOSE_MS, undefined, { ref: false }),
      ]);
      await Promise.all([cron.close(), turns.close(), abortBus.close(), waiter.close(), delegation.close()]);
      subscriber.disconnect();
      await status.release().catch(() => {});
    },
  };
}
