// Shapes of baton's own sections: [redis], [gateway], [worker] (spec/config.md §15).
import { isIP } from 'node:net';
import type { z } from 'zod';
import { isRedisUrl, parseHostPort } from '../core/redis-target.ts';
import {
  CLUSTER_NODE_FORM,
  LIST_EMPTY,
  REDIS_PREFIX_PATTERN,
  SECRET_HASH_FORM,
  SENTINEL_FORM,
  TRUSTED_PROXY_FORM,
} from './config-messages.ts';
import {
  arrayOf,
  bool,
  enumOf,
  intAtLeast,
  intBetween,
  nonNegInt,
  str,
  table,
  tableOf,
} from './schema-kit.ts';
import { SECRET_HASH_RE } from './secret-hash-form.ts';

export const redisSchema = table({
  url: str().default('redis://127.0.0.1:6379'),
  prefix: str()
    .regex(/^[A-Za-z0-9_-]+$/, { error: REDIS_PREFIX_PATTERN })
    .default('baton'),
  // §15.1: Sentinel and Cluster forms; how they combine is checked in redis-rules.ts.
  sentinels: arrayOf(str().refine((s) => parseHostPort(s) !== undefined, { error: SENTINEL_FORM }))
    .min(1, { error: LIST_EMPTY })
    .optional(),
  sentinel_master: str().optional(),
  cluster_nodes: arrayOf(str().refine(isRedisUrl, { error: CLUSTER_NODE_FORM }))
    .min(1, { error: LIST_EMPTY })
    .optional(),
  partitions: intBetween(1, 256).optional(),
});

export const gatewaySchema = table({
  host: str().default('127.0.0.1'),
  port: intBetween(1, 65535).default(8080),
  data_dir: str().default('./data'),
  api_token: str().optional(),
  // [baton decision] Who sees /healthz details and /metrics when api_token is set.
  health_detail: enumOf(['public', 'token'] as const).default('token'),
  // [baton decision] Addresses (or CIDR ranges) of the TLS-terminating proxies whose X-Forwarded-* headers count.
  trusted_proxies: arrayOf(str().refine(isProxyEntry, { error: TRUSTED_PROXY_FORM })).default([]),
  // [baton decision] Per-user web credentials; keys are login names (checked in ids.ts).
  web_users: tableOf(
    table({
      secret_hash: str().regex(SECRET_HASH_RE, { error: SECRET_HASH_FORM }),
      operator: bool().default(false),
    }),
  ).default({}),
});

/** An IPv4/IPv6 address, or one with a `/bits` prefix length in range (what Fastify's trustProxy takes). */
function isProxyEntry(entry: string): boolean {
  const [addr = '', bits, ...rest] = entry.trim().split('/');
  const family = isIP(addr);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

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
