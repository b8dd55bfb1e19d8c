// GET /metrics: Prometheus text from the Redis metrics store, recorded by several processes, plus queue gauges.
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createRedis } from '../../../src/core/redis.ts';
import { createMetricsStore, type MetricsStore } from '../../../src/fleet/metrics-store.ts';
import { cronQueuePrefix } from '../../../src/queue/queue-prefixes.ts';
import { runScript } from '../../helpers/processes.ts';
import { REDIS_URL, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { type OpsHarness, startOpsHarness } from './ops-harness.ts';

const prefix = uniquePrefix('gateway-metrics');
let h: OpsHarness;
let store: MetricsStore;

beforeAll(async () => {
  h = await startOpsHarness({ prefix });
  await new Promise<void>((resolve) =>
    h.redis.status === 'ready' ? resolve() : h.redis.once('ready', resolve),
  );
  store = createMetricsStore(h.redis, prefix, createSilentLogger());
});
afterAll(() => h.close());

async function scrape(): Promise<string> {
  const res = await h.get('/metrics');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

const sampleOf = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

/** Every line is a HELP/TYPE comment or `name{labels} value`, and each family's samples follow its TYPE. */
function assertExposition(text: string): void {
  expect(text.endsWith('\n')).toBe(true);
  const typed = new Map<string, string>();
  for (const line of text.trimEnd().split('\n')) {
    const meta = /^# (HELP|TYPE) (baton_[a-z_]+) (.+)$/.exec(line);
    if (meta) {
      if (meta[1] === 'TYPE') typed.set(meta[2]!, meta[3]!);
      continue;
    }
    const sample = /^(baton_[a-z_]+?)(_bucket|_sum|_count)?(\{.*\})? (-?[0-9.e+]+|\+Inf|NaN)$/.exec(line);
    expect(sample, line).not.toBeNull();
    const family = typed.has(sample![1]!) ? sample![1]! : `${sample![1]}${sample![2] ?? ''}`;
    expect(typed.has(family), `TYPE before ${line}`).toBe(true);
  }
}

describe('GET /metrics', () => {
  it('renders HELP/TYPE for every family and cumulative histogram buckets', async () => {
    store.observeTurn(300, 'ok'); // 0.3 s: first bucket
    store.observeTurn(1200, 'ok'); // 1.2 s: le=2.5
    store.observeTurn(700_000, 'error'); // beyond the last bucket: only +Inf
    await store.flush();
    const text = await scrape();
    assertExposition(text);
    for (const name of [
      'baton_turn_duration_seconds',
      'baton_model_request_duration_seconds',
      'baton_tool_calls_total',
      'baton_approvals_total',
      'baton_errors_total',
      'baton_queue_jobs',
      'baton_redis_up',
    ]) {
      expect(text).toMatch(new RegExp(`^# HELP ${name} .+$`, 'm'));
      expect(text).toMatch(new RegExp(`^# TYPE ${name} (counter|gauge|histogram)$`, 'm'));
    }
    const ok = (le: string) => sampleOf(text, `baton_turn_duration_seconds_bucket{outcome="ok",le="${le}"}`);
    expect([ok('0.5'), ok('1'), ok('2.5'), ok('600'), ok('+Inf')]).toEqual([1, 1, 2, 2, 2]);
    expect(sampleOf(text, 'baton_turn_duration_seconds_count{outcome="ok"}')).toBe(2);
    expect(sampleOf(text, 'baton_turn_duration_seconds_sum{outcome="ok"}')).toBeCloseTo(1.5);
    const err = (le: string) =>
      sampleOf(text, `baton_turn_duration_seconds_bucket{outcome="error",le="${le}"}`);
    expect([err('600'), err('+Inf')]).toEqual([0, 1]);
    expect(sampleOf(text, 'baton_redis_up')).toBe(1);
  });

  it('counts tool calls, approvals and errors, escaping label values', async () => {
    store.countToolCall('file_read', true);
    store.countToolCall('file_read', true);
    store.countToolCall('we"ird\\tool\nname', false);
    store.countApproval('denied');
    store.countError('turn');
    await store.flush();
    const text = await scrape();
    assertExposition(text);
    expect(sampleOf(text, 'baton_tool_calls_total{tool="file_read",success="true"}')).toBe(2);
    expect(sampleOf(text, 'baton_tool_calls_total{tool="we\\"ird\\\\tool\\nname",success="false"}')).toBe(1);
    expect(sampleOf(text, 'baton_approvals_total{outcome="denied"}')).toBe(1);
    expect(sampleOf(text, 'baton_errors_total{kind="turn"}')).toBe(1);
  });

  it('shows queue depths from the real queues', async () => {
    const cron = new Queue('cron', { connection: testRedis(), prefix: cronQueuePrefix(prefix) });
    await cron.add('fire', {});
    await cron.close();
    const text = await scrape();
    expect(sampleOf(text, 'baton_queue_jobs{queue="cron",state="waiting"}')).toBe(1);
    expect(sampleOf(text, 'baton_queue_jobs{queue="turns",state="waiting"}')).toBe(0);
  });

  it('adds up what two separate processes recorded', async () => {
    const script = fileURLToPath(new URL('./metrics-recorder.ts', import.meta.url));
    const before = await scrape();
    const count = (t: string) => sampleOf(t, 'baton_tool_calls_total{tool="shell",success="true"}') ?? 0;
    const turns = (t: string) => sampleOf(t, 'baton_turn_duration_seconds_count{outcome="ok"}') ?? 0;
    const outs = await Promise.all([
      runScript(script, [REDIS_URL, prefix, '7']),
      runScript(script, [REDIS_URL, prefix, '5']),
    ]);
    const pids = outs.map((o) => (JSON.parse(o) as { pid: number }).pid);
    expect(new Set(pids).size).toBe(2);
    const after = await scrape();
    expect(count(after) - count(before)).toBe(12);
    expect(turns(after) - turns(before)).toBe(12);
  });

  it('drops writes instead of queueing them while its Redis connection is down', async () => {
    // Like production (maxRetriesPerRequest: null): a queued write would wait for a reconnect forever.
    const down = createRedis({ url: 'redis://127.0.0.1:1' });
    down.on('error', () => {});
    const offline = createMetricsStore(down, prefix, createSilentLogger());
    offline.countError('offline-only');
    const flushed = await Promise.race([
      offline.flush().then(() => 'flushed'),
      new Promise((resolve) => setTimeout(resolve, 1000, 'still waiting')),
    ]);
    down.disconnect();
    expect(flushed).toBe('flushed');
  });
});
