// A delegate worker for a harness: its own queue client, wired into the harness's services (as the worker role
// builds them), and closed with the worker.
import { createDelegationServices } from '../../src/queue/delegate-queue.ts';
import { createDelegateWorker, type DelegateWorker } from '../../src/queue/delegate-worker.ts';
import type { AgentHarness } from './agent-harness.ts';
import { REDIS_URL } from './redis.ts';

export function startHarnessDelegateWorker(
  h: AgentHarness,
  opts: { concurrency: number; shutdownGraceMs?: number; heartbeatMs?: number },
): DelegateWorker {
  const delegation = createDelegationServices({
    redisTarget: { url: REDIS_URL },
    prefix: h.prefix,
    logger: h.services.logger,
  });
  const worker = createDelegateWorker({
    services: h.extend({ delegation }),
    delegation,
    redisTarget: { url: REDIS_URL },
    prefix: h.prefix,
    ...opts,
  });
  return {
    delegation,
    async close() {
      await worker.close();
      h.extend({ delegation: null });
      await delegation.close();
    },
  };
}
