// GET /metrics: the fleet metrics from Redis plus scrape-time gauges (Redis up, queue depths, channels, config errors).

import type { Logger } from '../core/logger.ts';
import type { ChannelState } from '../fleet/channel-presence.ts';
import { type GaugeSample, type MetricsStore, renderGauge } from '../fleet/metrics-store.ts';
import type { QueueStats } from '../queue/queue-stats.ts';
import { settle } from './deadline.ts';
import { type HealthProbes, pingRedis } from './health.ts';

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export interface MetricsSources extends HealthProbes {
  metrics: MetricsStore;
  queues: QueueStats;
  channels: () => Promise<Record<string, ChannelState>>;
  logger: Logger;
}

/**
 * Always answers: when Redis is down only `baton_redis_up 0` and the config gauge are shown (the exporter
 * convention), so a scrape never fails because of the thing it is meant to report.
 */
export async function renderMetrics(s: MetricsSources): Promise<string> {
  const redis = await pingRedis(s.redis, s.timeoutMs);
  const configErrors = s.diagnostics().diagnostics.filter((d) => d.severity === 'error').length;
  const parts = [
    renderGauge('baton_redis_up', 'Whether this gateway reaches Redis (1) or not (0).', [
      { labels: {}, value: redis.ok ? 1 : 0 },
    ]),
    renderGauge(
      'baton_config_errors',
      'Config errors of the loaded file; sections with errors are dropped.',
      [{ labels: {}, value: configErrors }],
    ),
    ...processGauges(),
  ];
  if (!redis.ok) return parts.join('');

  const [stored, queues, channels] = await Promise.all([
    settle(() => s.metrics.render(), s.timeoutMs),
    settle(() => s.queues.counts(), s.timeoutMs),
    settle(() => s.channels(), s.timeoutMs),
  ]);
  if (queues.ok) {
    const samples: GaugeSample[] = Object.entries(queues.value).flatMap(([queue, counts]) =>
      Object.entries(counts).map(([state, value]) => ({ labels: { queue, state }, value })),
    );
    parts.push(renderGauge('baton_queue_jobs', 'Jobs per queue and state.', samples));
  }
  if (channels.ok) {
    const samples = Object.entries(channels.value).map(([channel, state]) => ({
      labels: { channel },
      value: state === 'live' ? 1 : 0,
    }));
    parts.push(
      renderGauge('baton_channel_up', 'Whether a gateway holds the channel (presence key live).', samples),
    );
  }
  if (stored.ok) parts.push(stored.value);
  for (const [what, r] of [
    ['stored metrics', stored],
    ['queue counts', queues],
    ['channel states', channels],
  ] as const) {
    if (!r.ok) s.logger.warn({ err: s.redact(r.error) }, `metrics: ${what} unavailable`);
  }
  return parts.join('');
}

/** This process's memory, the process serving the scrape (a gateway's own, not the fleet's). */
function processGauges(): string[] {
  const mem = process.memoryUsage();
  return [
    renderGauge('baton_process_resident_memory_bytes', 'Resident memory size of this process in bytes.', [
      { labels: {}, value: mem.rss },
    ]),
    renderGauge('baton_process_heap_total_bytes', 'V8 heap size of this process in bytes.', [
      { labels: {}, value: mem.heapTotal },
    ]),
    renderGauge('baton_process_heap_used_bytes', 'V8 heap used by this process in bytes.', [
      { labels: {}, value: mem.heapUsed },
    ]),
    renderGauge(
      'baton_process_external_bytes',
      'Memory of C++ objects bound to V8 objects (Buffers) in bytes.',
      [{ labels: {}, value: mem.external }],
    ),
  ];
}
