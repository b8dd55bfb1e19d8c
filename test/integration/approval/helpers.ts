// Shared setup for the approval integration tests: separate connections stand in for the worker and the gateway.
import type { Redis } from 'ioredis';
import type { NewApproval } from '../../../src/approval/approval-store.ts';

export const newApproval = (over: Partial<NewApproval> = {}): NewApproval => ({
  tool: 'shell',
  args: { command: 'rm -rf /tmp/x', api_key: 'sk-raw-secret-value' },
  agent: 'main',
  caller: null,
  runId: 'run-1',
  rootRunId: 'run-1',
  channel: 'telegram.ops',
  destination: { chat: '100', thread: null },
  waitMs: 60_000,
  ...over,
});

/** Now on the Redis clock (the clock every approval time is stamped with), in ms. */
export async function redisNow(redis: Redis): Promise<number> {
  const [s, us] = await redis.time();
  return Number(s) * 1000 + Math.floor(Number(us) / 1000);
}
