// Deployment-wide config reload over Redis pub/sub: a request reaches every role process of the prefix, each
// reloads from its own config file and publishes an ack (config.md "Reload").
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { newRunId } from '../core/ids.ts';
import type { Logger } from '../core/logger.ts';
import { parseRecord } from '../core/redis-record.ts';

export const reloadChannel = (prefix: string): string => `${prefix}:config:reload`;
export const reloadAckChannel = (prefix: string): string => `${prefix}:config:reload-ack`;

const requestSchema = z.object({ request: z.string().min(1) });

const ackSchema = z.object({
  request: z.string(),
  process: z.string(),
  role: z.string(),
  ok: z.boolean(),
  changed: z.array(z.string()),
  restart_only: z.array(z.string()),
  errors: z.array(z.string()),
});

/** One process's answer: applied (`ok`) or rejected with the error diagnostics of its file. */
export type ReloadAck = z.infer<typeof ackSchema>;

export interface DeploymentReload {
  request: string;
  /** Processes the request reached (Redis counts the subscribed connections, one per process). */
  reached: number;
  /** The acks that arrived in time; fewer than `reached` when a process was slow or stopped meanwhile. */
  acks: ReloadAck[];
}

/** What a process reports of its reload. */
export type ReloadResult = Pick<ReloadAck, 'ok' | 'changed' | 'restart_only' | 'errors'>;

/**
 * Publishes a reload request to every process of the deployment and collects their acks for up to
 * `timeoutMs` (default 5 s), returning early once every reached process answered. `redis` must not be in
 * subscriber mode; a dedicated connection for the acks is opened and closed here.
 */
export async function requestDeploymentReload(
  redis: Redis,
  prefix: string,
  opts: { timeoutMs?: number; logger?: Pick<Logger, 'warn'> } = {},
): Promise<DeploymentReload> {
  const logger = opts.logger ?? { warn: () => {} };
  const request = newRunId();
  const acks: ReloadAck[] = [];
  const sub = redis.duplicate();
  sub.on('error', () => {});
  try {
    let wake: () => void = () => {};
    sub.on('message', (_ch: string, raw: string) => {
      const ack = parseRecord(ackSchema, raw, { logger, key: reloadAckChannel(prefix), what: 'reload ack' });
      if (ack?.request !== request) return;
      acks.push(ack);
      wake();
    });
    await sub.subscribe(reloadAckChannel(prefix));
    const reached = await redis.publish(reloadChannel(prefix), JSON.stringify({ request }));
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      wake = () => {
        if (acks.length >= reached) resolve();
      };
      timer = setTimeout(resolve, opts.timeoutMs ?? 5000);
      wake();
    });
    clearTimeout(timer);
    return { request, reached, acks: [...acks] };
  } finally {
    sub.disconnect();
  }
}

export interface ReloadListenerOptions {
  /** A dedicated connection: a subscribed ioredis client can run nothing else. */
  subscriber: Redis;
  publisher: Redis;
  prefix: string;
  /** Who answers, on the ack (a worker id or similar) and its role name. */
  process: string;
  role: string;
  reload(): Promise<ReloadResult>;
  logger: Logger;
}

/** Subscribes this process to reload requests; resolves once subscribed, with the unsubscribe function. */
export async function listenForReloads(o: ReloadListenerOptions): Promise<() => Promise<void>> {
  const channel = reloadChannel(o.prefix);
  o.subscriber.on('message', (ch: string, raw: string) => {
    if (ch !== channel) return;
    const msg = parseRecord(requestSchema, raw, { logger: o.logger, key: channel, what: 'reload request' });
    if (!msg) return;
    void answer(msg.request);
  });
  async function answer(request: string): Promise<void> {
    try {
      const result = await o.reload();
      const ack: ReloadAck = { request, process: o.process, role: o.role, ...result };
      await o.publisher.publish(reloadAckChannel(o.prefix), JSON.stringify(ack));
    } catch (err) {
      o.logger.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'config reload request failed',
      );
    }
  }
  await o.subscriber.subscribe(channel);
  return async () => {
    await o.subscriber.unsubscribe(channel).catch(() => {});
  };
}
