// GET /healthz: Redis, queues and channels probed under deadlines; config errors and dropped sections (config.md §4).
import type { Redis } from 'ioredis';
import type { Diagnostic } from '../config/types.ts';
import type { ChannelState } from '../fleet/channel-presence.ts';
import type { WorkerStatus } from '../fleet/worker-status.ts';
import type { JobCounts, QueueStats } from '../queue/queue-stats.ts';
import { settle } from './deadline.ts';
import {
  channelDown,
  channelStatesUnavailable,
  configErrorCount,
  queueStatsUnavailable,
  redisUnreachable,
  sandboxRequired,
  sectionDropped,
  workerStatesUnavailable,
} from './ops-api-messages.ts';

export interface ConfigDiagnostics {
  diagnostics: readonly Diagnostic[];
  droppedSections: readonly string[];
}

export interface HealthProbes {
  redis: Redis;
  queues: QueueStats;
  channels: () => Promise<Record<string, ChannelState>>;
  /** Which gateway holds each channel (its presence/lease value); absent: not reported. */
  channelHolders?: () => Promise<Record<string, string | null>>;
  /** Each live worker's published status (its shell sandbox); absent: not reported. */
  workers?: () => Promise<Record<string, WorkerStatus>>;
  /** Those of the config in effect (a good reload replaces them): read per request. */
  diagnostics: () => ConfigDiagnostics;
  timeoutMs: number;
  /** Scrubs secrets from error texts before they are returned. */
  redact: (text: string) => string;
}

export interface HealthReport {
  status: 'ok' | 'degraded';
  problems?: string[];
  config_errors?: string[];
  dropped_sections?: string[];
  redis: { ok: true; latency_ms: number } | { ok: false; error: string };
  queues: Record<string, JobCounts> | null;
  channels: Record<string, ChannelState> | null;
  /** The gateway holding each channel (Telegram and Discord: the lease holder), when reported. */
  channel_holders?: Record<string, string | null>;
  /** Per live worker: the sandbox probe and how each risk profile's shell commands run there. */
  workers: Record<string, WorkerStatus> | null;
}

/** Statuses in which ioredis would hold a command until it reconnects: answer "down" without asking. */
const NOT_CONNECTED = new Set(['reconnecting', 'end', 'close']);

export async function pingRedis(redis: Redis, timeoutMs: number): Promise<HealthReport['redis']> {
  if (NOT_CONNECTED.has(redis.status)) return { ok: false, error: `connection is ${redis.status}` };
  const r = await settle(() => redis.ping(), timeoutMs);
  return r.ok ? { ok: true, latency_ms: r.ms } : { ok: false, error: r.error };
}

/**
 * A profile that requires the sandbox on a worker where it cannot run fails every shell call there: degraded.
 * Auto profiles running unsandboxed and profiles that turn it off are reported, not counted as problems.
 */
function sandboxProblems(workers: Record<string, WorkerStatus>, redact: (t: string) => string): string[] {
  const out: string[] = [];
  for (const [id, status] of Object.entries(workers))
    for (const [profile, mode] of Object.entries(status.shell))
      if (mode === 'refused') out.push(sandboxRequired(id, profile, redact(status.sandbox)));
  return out;
}

export async function checkHealth(p: HealthProbes): Promise<HealthReport> {
  const problems: string[] = [];
  const config = p.diagnostics();
  const configErrors = config.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
  for (const s of config.droppedSections) problems.push(sectionDropped(s));
  if (configErrors.length > 0) problems.push(configErrorCount(configErrors.length));

  const redis = await pingRedis(p.redis, p.timeoutMs);
  let queues: HealthReport['queues'] = null;
  let channels: HealthReport['channels'] = null;
  let workers: HealthReport['workers'] = null;
  let holders: HealthReport['channel_holders'];
  if (!redis.ok) {
    redis.error = p.redact(redis.error);
    problems.push(redisUnreachable(redis.error));
  } else {
    const [q, c, w, hd] = await Promise.all([
      settle(() => p.queues.counts(), p.timeoutMs),
      settle(() => p.channels(), p.timeoutMs),
      settle(() => (p.workers ? p.workers() : Promise.resolve(null)), p.timeoutMs),
      settle(() => (p.channelHolders ? p.channelHolders() : Promise.resolve(null)), p.timeoutMs),
    ]);
    if (hd.ok && hd.value) holders = hd.value;
    if (q.ok) queues = q.value;
    else problems.push(queueStatsUnavailable(p.redact(q.error)));
    if (c.ok) {
      channels = c.value;
      for (const [key, state] of Object.entries(c.value))
        if (state === 'down') problems.push(channelDown(key));
    } else problems.push(channelStatesUnavailable(p.redact(c.error)));
    if (w.ok) {
      workers = w.value;
      problems.push(...sandboxProblems(w.value ?? {}, p.redact));
    } else problems.push(workerStatesUnavailable(p.redact(w.error)));
  }

  const report: HealthReport = {
    status: problems.length === 0 ? 'ok' : 'degraded',
    redis,
    queues,
    channels,
    workers,
  };
  if (holders) report.channel_holders = holders;
  if (problems.length > 0) report.problems = problems;
  if (configErrors.length > 0) report.config_errors = configErrors;
  if (config.droppedSections.length > 0) report.dropped_sections = [...config.droppedSections];
  return report;
}
