// Tool-created cron jobs in Redis: one hash under `<prefix>:cron-jobs`, id → JSON record.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { recipientSchema } from '../channel-host/types.ts';
import { createSilentLogger, type Logger } from '../core/logger.ts';
import { parseRecord } from '../core/redis-record.ts';
import type { NewToolCronJob, ToolCronJob } from './types.ts';

const scheduleSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('cron'), expr: z.string(), tz: z.string() }),
  z.object({ kind: z.literal('every'), every_ms: z.number() }),
  z.object({ kind: z.literal('at'), at: z.string() }),
]);

const recordSchema = z.object({
  id: z.string(),
  agent: z.string(),
  name: z.string(),
  schedule: scheduleSchema,
  prompt: z.string(),
  delivery: recipientSchema,
  created_at: z.string(),
});

export interface CronJobRegistry {
  create(job: NewToolCronJob): Promise<ToolCronJob>;
  get(id: string): Promise<ToolCronJob | null>;
  list(agent?: string): Promise<ToolCronJob[]>;
  remove(id: string): Promise<boolean>;
}

export const newToolJobId = () => `t-${randomBytes(4).toString('hex')}`;

/** A record that cannot be read (damaged, or another version's) is logged and skipped, never thrown. */
export function createCronJobRegistry(
  redis: Redis,
  prefix: string,
  logger: Pick<Logger, 'warn'> = createSilentLogger(),
): CronJobRegistry {
  const key = `${prefix}:cron-jobs`;
  const parse = (id: string, raw: string | null): ToolCronJob | null =>
    parseRecord(recordSchema, raw, { logger, key: `${key}[${id}]`, what: 'cron job' }) ?? null;
  return {
    async create(job) {
      for (;;) {
        const record: ToolCronJob = { id: newToolJobId(), ...job, created_at: new Date().toISOString() };
        if ((await redis.hsetnx(key, record.id, JSON.stringify(record))) === 1) return record;
      }
    },
    get: async (id) => parse(id, await redis.hget(key, id)),
    async list(agent) {
      const all = Object.entries(await redis.hgetall(key)).map(([id, raw]) => parse(id, raw));
      return all
        .filter((j): j is ToolCronJob => j !== null && (agent === undefined || j.agent === agent))
        .sort((a, b) => a.created_at.localeCompare(b.created_at));
    },
    remove: async (id) => (await redis.hdel(key, id)) === 1,
  };
}
