// At most one agent run per fire attempt: a claim per (fire, attempt) and the stored result of a success.
//
// Why: BullMQ moves a stalled job (its worker died or missed lock renewals) back to wait, and for scheduler
// jobs it does so whatever maxStalledCount says. Without a claim a long run whose lock lapsed would run twice.
// With it, a redelivered attempt re-posts a stored success (same outbox key, so the chat sees it once) or, when
// the first holder never finished, ends without running: a crash mid-run loses that fire rather than risking
// a double run. Real failures still retry, each as a new attempt (a new claim) with a new run id.
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
