// Worker status in Redis: each worker publishes what it found at startup (the shell sandbox probe) under
// `<prefix>:worker-status:<worker id>` with a TTL it refreshes; /healthz, in whichever process serves it, reads them.
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { scanKeys } from '../core/redis-scan.ts';

export const WORKER_STATUS_TTL_SECS = 30;
export const WORKER_STATUS_REFRESH_MS = 10_000;

const workerStatusSchema = z.object({
  /** `sandboxed (bubblewrap)` or `unavailable: <reason>`: what the probe found on this worker's host. */
  sandbox: z.string(),
  /** How the shell commands of each risk profile in use run on this worker. */
  shell: z.record(z.string(), z.enum(['sandboxed', 'unsandboxed', 'off', 'refused'])),
});
export type WorkerStatus = z.infer<typeof workerStatusSchema>;

export interface WorkerStatusHold {
  /** Stops refreshing and removes the key. */
  release(): Promise<void>;
}

export interface WorkerStatusBoard {
  /** Writes now and every 10 s until released; refresh failures are logged, never thrown. */
  publish(workerId: string, status: WorkerStatus): Promise<WorkerStatusHold>;
  /** Every live worker's status by worker id; an unreadable record is skipped and logged. */
  all(): Promise<Record<string, WorkerStatus>>;
}

export function createWorkerStatusBoard(redis: Redis, prefix: string, logger: Logger): WorkerStatusBoard {
  const keyPrefix = `${prefix}:worker-status:`;
  return {
    async publish(workerId, status) {
      const key = `${keyPrefix}${workerId}`;
      const value = JSON.stringify(status);
      const write = () => redis.set(key, value, 'EX', WORKER_STATUS_TTL_SECS);
      await write();
      const timer = setInterval(() => {
        write().catch((err: unknown) => {
          logger.warn({ worker_id: workerId, err: errorMessage(err) }, 'worker status refresh failed');
        });
      }, WORKER_STATUS_REFRESH_MS);
      timer.unref();
      return {
        async release() {
          clearInterval(timer);
          await redis.del(key);
        },
      };
    },
    async all() {
      const unique = (await scanKeys(redis, `${keyPrefix}*`, 200)).sort();
      if (unique.length === 0) return {};
      // One GET per key, not MGET: each worker's key sits in its own slot (§15.1.1 multi-key commands).
      const values = await Promise.all(unique.map((k) => redis.get(k)));
      const out: Record<string, WorkerStatus> = {};
      unique.forEach((key, i) => {
        const raw = values[i];
        if (raw == null) return; // expired between SCAN and MGET
        const id = key.slice(keyPrefix.length);
        const parsed = parseStatus(raw);
        if (parsed) out[id] = parsed;
        else logger.warn({ worker_id: id }, 'unreadable worker status record skipped');
      });
      return out;
    },
  };
}

function parseStatus(raw: string): WorkerStatus | undefined {
  try {
    const r = workerStatusSchema.safeParse(JSON.parse(raw));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}
