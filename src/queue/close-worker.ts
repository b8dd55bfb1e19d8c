// Closes a BullMQ worker without ever hanging shutdown: a close stuck on a dead connection is forced.
import type { Worker } from 'bullmq';

/** Waits for `worker.close()` up to `timeoutMs` (after running jobs finished), then forces it. */
export async function closeWorker(worker: Worker, timeoutMs = 5000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const closed = worker.close().then(() => 'closed' as const);
  const outcome = await Promise.race([closed, timedOut]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    // Seen after a Redis restart: the blocking connection never answers, so close() never returns.
    await Promise.race([worker.close(true), new Promise((r) => setTimeout(r, 1000).unref())]);
    await worker.disconnect().catch(() => {});
  }
}
