// What the ops API is built from: its dependencies (given by the role that starts it) and their resolved form.
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { ApprovalStore } from '../approval/approval-store.ts';
import type { ChannelHttpRoute } from '../channel-host/types.ts';
import type { BatonConfig } from '../config/types.ts';
import type { Logger } from '../core/logger.ts';
import { createTextRedactor } from '../core/redact.ts';
import type { TaskList } from '../delegation/task-list.ts';
import type { ChannelState } from '../fleet/channel-presence.ts';
import type { MetricsStore } from '../fleet/metrics-store.ts';
import type { AbortSession } from '../fleet/session-abort.ts';
import type { WorkerStatus } from '../fleet/worker-status.ts';
import { createLiveSubscriber, type LiveSubscriber } from '../live/live-subscriber.ts';
import { createRunEventFeed, type RunEventFeed } from '../live/run-event-feed.ts';
import { keySpaceOf } from '../queue/names.ts';
import type { QueueStats } from '../queue/queue-stats.ts';
import type { ConfigDiagnostics } from './health.ts';

export const DEFAULT_PROBE_TIMEOUT_MS = 1000;

export interface OpsServerDeps {
  config: BatonConfig;
  /** A connected client for probes and stores (not a subscriber connection). */
  redis: Redis;
  logger: Logger;
  /** Of the config in effect (read per request): errors and dropped sections make /healthz `degraded`. */
  diagnostics: () => ConfigDiagnostics;
  /** Closed when the server closes. */
  queues: QueueStats;
  /** State of each channel this deployment is expected to hold; a `down` one degrades /healthz. */
  channels: () => Promise<Record<string, ChannelState>>;
  /** Which gateway holds each channel (the presence/lease value), shown by /healthz. */
  channelHolders?: () => Promise<Record<string, string | null>>;
  /** Each live worker's published status (shell sandbox); a required sandbox that cannot run degrades /healthz. */
  workers?: () => Promise<Record<string, WorkerStatus>>;
  abortSession: AbortSession;
  tasks: TaskList;
  /** Pending approvals and the 7-day audit trail (approvals.md §10, §14). */
  approvals: Pick<ApprovalStore, 'listPending' | 'listAudit'>;
  metrics: MetricsStore;
  /** Webhook routes of the started channel adapters (served without the bearer token). */
  channelRoutes?: ChannelHttpRoute[];
  /**
   * Registers the browser face (src/web registerWeb) once, after the API routes; given by the role because
   * src/web sits above src/ops-api. Absent: no browser pages (browser paths then find no route).
   */
  web?: (app: FastifyInstance, ctx: OpsContext) => void;
  /** Time a client has to send its request (default REQUEST_TIMEOUT_MS, 30 s). */
  requestTimeoutMs?: number;
  /** Deadline of each Redis-backed probe (default 1000 ms). */
  probeTimeoutMs?: number;
}

/** What this server shows live: its one pub/sub connection and the run-event feed on it (closed with the server). */
export interface LiveFeeds {
  subscriber: LiveSubscriber;
  runEvents: RunEventFeed;
}

export interface OpsContext extends OpsServerDeps {
  live: LiveFeeds;
  timeoutMs: number;
  redact: (text: string) => string;
  /** The configured bearer token, or undefined when the API is open (loopback only). */
  apiToken: string | undefined;
  /** With a token: /healthz details and /metrics are for the bearer only (`token`), or for anyone (`public`). */
  healthDetail: 'public' | 'token';
}

export function resolveOpsContext(deps: OpsServerDeps): OpsContext {
  const token = deps.config.gateway.api_token;
  const redact = createTextRedactor([...deps.config.secrets, ...(token ? [token] : [])]);
  // No connection until a live view is first opened.
  const subscriber = createLiveSubscriber({ redisTarget: deps.config.redis, logger: deps.logger });
  const runEvents = createRunEventFeed({
    redis: deps.redis,
    subscriber,
    space: keySpaceOf(deps.config.redis),
    logger: deps.logger,
  });
  return {
    ...deps,
    live: { subscriber, runEvents },
    timeoutMs: deps.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
    redact,
    apiToken: token !== undefined && token.trim() !== '' ? token : undefined,
    healthDetail: deps.config.gateway.health_detail ?? 'token',
  };
}
