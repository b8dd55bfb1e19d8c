// A cron process for tests: config sync + cron worker, delivering into a Redis list; stops cleanly on SIGTERM.
// Env: CRON_TOML (config text using ${MODEL_URI}), MODEL_URI, PREFIX, DATA_DIR, OUTBOX_KEY, REDIS_URL.
import { Redis } from 'ioredis';
import { createLogger } from '../../../src/core/logger.ts';
import { createCronScheduler } from '../../../src/queue/cron-scheduler.ts';
import { startCronWorker } from '../../../src/queue/cron-worker.ts';
import { createRuntimeServices } from '../../../src/roles/services.ts';
import { configFromToml } from '../../helpers/test-config.ts';
import { createRecordingOutbox } from './recording-outbox.ts';

const env = (name: string): string => {
  const v = process.env[name];
  if (v === undefined) throw new Error(`cron-process: ${name} is not set`);
  return v;
};

const redisUrl = env('REDIS_URL');
const prefix = env('PREFIX');
const config = configFromToml(env('CRON_TOML'), {
  env: { MODEL_URI: env('MODEL_URI') },
  dataDir: env('DATA_DIR'),
  redisPrefix: prefix,
  redisUrl,
});

const logger = createLogger({ level: 'warn' });
const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
const scheduler = createCronScheduler({ config, redis, redisTarget: { url: redisUrl }, prefix, logger });
const services = createRuntimeServices({ config, redis, logger, env: {}, cron: scheduler });
const report = await scheduler.sync();
const worker = startCronWorker({
  services,
  outbox: createRecordingOutbox(redis, env('OUTBOX_KEY')),
  redisTarget: { url: redisUrl },
  prefix,
  concurrency: 4,
});
process.stdout.write(`ready ${JSON.stringify(report)}\n`);

process.once('SIGTERM', () => {
  void (async () => {
    await worker.close();
    await scheduler.close();
    await redis.quit();
    process.stdout.write('stopped\n');
    process.exit(0);
  })();
});
