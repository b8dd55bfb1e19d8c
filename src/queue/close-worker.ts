// Closes a BullMQ worker without ever hanging shutdown: a close stuck on a dead connection is forced.
import type { Worker } from 'bullmq';

const within = (ms: number, work: Promise<unknown>) =>
  Promise.race([work.catch(() => {}), new Promise<void>((r) => setTimeout(r, ms).unref())]);

/** Waits for `worker.close()` up to `timeoutMs` (running jobs finish first), then forces it. */
export async function closeWorker(worker: Worker, timeoutMs = 5000): Promise<void> {
  let done = false;
  const closed = worker.close().then(() => {
    done = true;
  });
  await within(timeoutMs, closed);
  if (done) return;
  // Seen after a Redis restart: a blocking connection never answers again, so close() never returns.
  await within(1000, worker.close(true));
  await within(1000, worker.disconnect());
}
