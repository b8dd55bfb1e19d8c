// Shapes of baton's own sections: [redis], [gateway], [worker] (spec/config.md §15).
import type { z } from 'zod';
import { REDIS_PREFIX_PATTERN } from './config-messages.ts';
import { enumOf, intAtLeast, intBetween, nonNegInt, str, table } from './schema-kit.ts';

export const redisSchema = table({
  url: str().default('redis://127.0.0.1:6379'),
  prefix: str()
    .regex(/^[A-Za-z0-9_-]+$/, { error: REDIS_PREFIX_PATTERN })
    .default('baton'),
});

export const gatewaySchema = table({
  host: str().default('127.0.0.1'),
  port: intBetween(1, 65535).default(8080),
  data_dir: str().default('./data'),
  api_token: str().optional(),
  // [baton decision] Who sees /healthz details and /metrics when api_token is set.
  health_detail: enumOf(['public', 'token'] as const).default('token'),
});

export const workerSchema = table({
  concurrency: intAtLeast(1).default(16),
  background_concurrency: intAtLeast(1).default(8),
  shutdown_grace_secs: nonNegInt().default(30),
  // [baton decision] Stored transcript per session (the dashboard reads it whole; the model sees only its window,
  // max_history_messages): the newest this many entries (messages and tool calls/results) are kept.
  transcript_max_entries: intAtLeast(1).default(10_000),
});

export type RedisShape = z.output<typeof redisSchema>;
export type GatewayShape = z.output<typeof gatewaySchema>;
export type WorkerShape = z.output<typeof workerSchema>;
