// At most one agent run per fire attempt: a claim per (fire, attempt) and the stored result of a success.
import type { Redis } from 'ioredis';

/** Long enough to outlive any redelivery of the same fire (BullMQ stalls, restarts). */
const CLAIM_TTL_SECS = 7 * 24 * 60 * 60;

export interface FireClaims {
  /** True when this caller owns the attempt; false when another delivery of it already ran (or runs). */
  claim(fireId: string, attempt: number, runId: string): Promise<boolean>;
  /** Records the delivered text of a successful fire, so a redelivery re-posts it instead of re-running. */
  saveResult(fireId: string, output: string): Promise<void>;
  result(fireId: string): Promise<string | null>;
}

export function createFireClaims(redis: Redis, prefix: string): FireClaims {
  const claimKey = (fire: string, attempt: number) => `${prefix}:cron-claim:${fire}:${attempt}`;
  const resultKey = (fire: string) => `${prefix}:cron-result:${fire}`;
  return {
    async claim(fireId, attempt, runId) {
      return (await redis.set(claimKey(fireId, attempt), runId, 'EX', CLAIM_TTL_SECS, 'NX')) === 'OK';
    },
    async saveResult(fireId, output) {
      await redis.set(resultKey(fireId), output, 'EX', CLAIM_TTL_SECS);
    },
    result: (fireId) => redis.get(resultKey(fireId)),
  };
}
