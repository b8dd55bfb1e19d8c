// A separate worker process for the cross-process tests: consumes the delegate queue until SIGTERM.
// Usage: node delegate-worker-process.ts <config.toml>  (env: MODEL_URI, DATA_DIR, PREFIX, REDIS_URL)
import { readFileSync } from 'node:fs';
import { createLogger } from '../../../src/core/logger.ts';
import { createRedis } from '../../../src/core/redis.ts';
import { createDelegationServices } from '../../../src/queue/delegate-queue.ts';
import { createDelegateWorker } from '../../../src/queue/delegate-worker.ts';
import { createRuntimeServices } from '../../../src/roles/services.ts';
import { configFromToml } from '../../helpers/test-config.ts';

const config = configFromToml(readFileSync(process.argv[2]!, 'utf8'), { env: process.env });
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = createRedis({ url: redisUrl });
const logger = createLogger({ level: 'warn' });
const prefix = config.redis.prefix;
const delegation = createDelegationServices({ redisTarget: { url: redisUrl }, prefix, logger });
const services = createRuntimeServices({ config, redis, logger, env: {}, delegation });
const worker = createDelegateWorker({
  services,
  delegation,
  redisTarget: { url: redisUrl },
  prefix,
  concurrency: 4,
  heartbeatMs: 200,
});
process.stdout.write(`ready ${services.workerId}\n`);
process.once('SIGTERM', () => {
  void worker
    .close()
    .then(() => delegation.close())
    .then(() => redis.quit())
    .then(() => process.exit(0));
});
