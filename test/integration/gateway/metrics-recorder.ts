// Child process for the metrics test: records turns and tool calls into the shared store, flushes, exits.
import { Redis } from 'ioredis';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createMetricsStore } from '../../../src/fleet/metrics-store.ts';

const [url, prefix, countArg] = process.argv.slice(2);
const redis = new Redis(url ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
try {
  await new Promise<void>((resolve) => redis.once('ready', () => resolve()));
  const metrics = createMetricsStore(redis, prefix ?? 'missing', createSilentLogger());
  for (let i = 0; i < Number(countArg); i++) {
    metrics.observeTurn(1500, 'ok');
    metrics.countToolCall('shell', true);
  }
  await metrics.flush();
  process.stdout.write(`${JSON.stringify({ pid: process.pid })}\n`);
} finally {
  redis.disconnect();
}
