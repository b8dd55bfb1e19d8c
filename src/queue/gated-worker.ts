// One process-wide cap on running turns across the per-partition turns queues ([worker] concurrency).
//
// Each partition has its own BullMQ Worker (one queue per partition, spec/config.md §15.1.1). A worker takes a
// slot of the shared gate *before* it moves a job to active, and gives it back when BullMQ is done with the job.
// So a process never holds more active jobs than the cap: a job it cannot run yet stays waiting in Redis, where
// another worker process can take it (a semaphore inside the processor would instead hoard up to partitions ×
// cap jobs, locked but idle). Waiting for a job (BullMQ's blocking wait on its marker) holds no slot, so every
// partition is listened to at once. With one partition this is BullMQ's own concurrency, unchanged.
import { join } from 'node:path';
import { type Job, type Processor, Worker, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { loadRedisScript } from '../core/redis-script.ts';
import { coalesceTickWrites } from '../core/tick-writes.ts';

const clearIdleMarker = loadRedisScript(join(import.meta.dirname, 'lua', 'clear-idle-marker-4.lua'));

/** A counting semaphore, first come first served. */
export class SlotGate {
  #free: number;
  readonly #waiting: (() => void)[] = [];
  constructor(size: number) {
    this.#free = size;
  }
  /** Callers queued for a slot. */
  get waiting(): number {
    return this.#waiting.length;
  }
  /** Takes a slot if one is free now. */
  tryAcquire(): boolean {
    if (this.#free === 0) return false;
    this.#free--;
    return true;
  }
  async acquire(): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return;
    }
    await new Promise<void>((r) => this.#waiting.push(r));
  }
  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free++;
  }
}

/**
 * A BullMQ Worker whose active jobs each hold a slot of `gate`.
 *
 * BullMQ fetches jobs one after another, up to its concurrency, before it starts the ones it has. So a worker
 * holding a fetched job it has not started must not wait for a slot (that job would never start, and never give
 * its slot back): it answers "no job" at once, and BullMQ starts what it has. Otherwise it waits for a slot: its
 * running jobs end on their own and give theirs back (BullMQ's loop waits for nothing else meanwhile).
 */
export class GatedWorker<T> extends Worker<T> {
  readonly #gate: SlotGate;
  /** Slots this worker holds: jobs it moved to active and BullMQ has not finished with. */
  #held = 0;
  /** Of those, the jobs BullMQ has started processing. */
  #started = 0;
  /** The check sent behind the last fetch found nothing waiting after the job it took. */
  #nothingBehind = false;

  /** Starts at once (BullMQ's autorun), once the gate is in place. */
  constructor(name: string, processor: Processor<T>, opts: WorkerOptions, gate: SlotGate) {
    super(name, processor, { ...opts, autorun: false });
    this.#gate = gate;
    // A fetch and the check behind it leave in one write (core/tick-writes.ts: corked for the tick); a Cluster
    // client is left as is.
    this.#client().then(coalesceTickWrites, () => {});
    this.run().catch((err: unknown) =>
      this.emit('error', err instanceof Error ? err : new Error(String(err))),
    );
  }

  protected override async moveToActive(token: string, name?: string): Promise<Job<T>> {
    const self = this as unknown as { drained: boolean };
    const afterWait = self.drained;
    if (this.#nothingBehind) {
      this.#nothingBehind = false;
      // BullMQ fetches again at once after a job, and the job's own marker would wake its next wait too: two
      // round trips that find nothing. "No job" instead, and the wait blocks until an add sets the marker again.
      // Only for that immediate fetch: once drained (BullMQ's fetch-next on a completion can say so first), the
      // next fetch may follow a wait that an add ended, and must read the queue.
      if (!afterWait) {
        self.drained = true;
        return undefined as unknown as Job<T>;
      }
    }
    const gate = this.#gate;
    if (!gate.tryAcquire()) {
      if (this.#held > this.#started) {
        // BullMQ's "no job": it starts the jobs it holds. The queue was not read, so the next fetch reads it
        // without first waiting for a new-job marker (one may have been taken for the job left waiting).
        self.drained = false;
        return undefined as unknown as Job<T>;
      }
      await gate.acquire();
    }
    if (this.closing) {
      gate.release();
      return undefined as unknown as Job<T>; // BullMQ's own "no job" (its typing says Job)
    }
    let job: Job<T> | undefined;
    let behind: Promise<boolean> | undefined;
    try {
      const fetching = super.moveToActive(token, name);
      // The first fetch after a wait: right behind it, on its connection, whether anything waits after it.
      // Both wait on the same client promise, BullMQ's first, so Redis runs the check after the fetch (run
      // before it, the check sees the job still waiting and says so: no harm, no saving).
      behind = afterWait ? this.#nothingWaits() : undefined;
      job = await fetching;
    } finally {
      if (job) this.#held++;
      else gate.release();
    }
    if (job && behind) this.#nothingBehind = await behind;
    return job;
  }

  /** The Redis backend's own client (its documented escape hatch), the connection moveToActive uses. */
  #client(): Promise<Redis> {
    return (this.backend as unknown as { client: Promise<Redis> }).client;
  }

  /** True when the queue has no job to hand out (its base marker then cleared); false when unsure. */
  async #nothingWaits(): Promise<boolean> {
    const { wait, prioritized, delayed, marker } = this.keys;
    if (!wait || !prioritized || !delayed || !marker) return false;
    try {
      const client = await this.#client();
      return (await clearIdleMarker(client, [wait, prioritized, delayed, marker], [])) === 1;
    } catch {
      return false; // BullMQ's own fetch then decides, as it would have
    }
  }

  override async processJob(
    job: Job<T>,
    token: string,
    fetchNextCallback: () => boolean = () => true,
  ): Promise<Job<T> | undefined> {
    const gate = this.#gate;
    let next: Job<T> | undefined;
    this.#started++;
    try {
      // BullMQ may fetch this partition's next job as it completes this one: the slot then passes to that job,
      // unless another partition is waiting for a slot (it goes to that one: partitions take turns).
      next =
        (await super.processJob(job, token, () => gate.waiting === 0 && fetchNextCallback())) || undefined;
      return next;
    } finally {
      this.#started--;
      // A next job keeps the slot (it is held, not yet started).
      if (!next) {
        this.#held--;
        gate.release();
      }
    }
  }
}
