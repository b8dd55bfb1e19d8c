// One process-wide cap on running turns across the per-partition turns queues ([worker] concurrency).
//
// Each partition has its own BullMQ Worker (one queue per partition, spec/config.md §15.1.1). A worker takes a
// slot of the shared gate *before* it moves a job to active, and gives it back when BullMQ is done with the job.
// So a process never holds more active jobs than the cap: a job it cannot run yet stays waiting in Redis, where
// another worker process can take it (a semaphore inside the processor would instead hoard up to partitions ×
// cap jobs, locked but idle). Waiting for a job (BullMQ's blocking wait on its marker) holds no slot, so every
// partition is listened to at once. With one partition this is BullMQ's own concurrency, unchanged.
import { type Job, type Processor, Worker, type WorkerOptions } from 'bullmq';

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
  /** Slots free now. */
  get free(): number {
    return this.#free;
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

/** A BullMQ Worker whose active jobs each hold a slot of `gate`. */
export class GatedWorker<T> extends Worker<T> {
  readonly #gate: SlotGate;

  /** Starts at once (BullMQ's autorun), once the gate is in place. */
  constructor(name: string, processor: Processor<T>, opts: WorkerOptions, gate: SlotGate) {
    super(name, processor, { ...opts, autorun: false });
    this.#gate = gate;
    this.run().catch((err: unknown) =>
      this.emit('error', err instanceof Error ? err : new Error(String(err))),
    );
  }

  protected override async moveToActive(token: string, name?: string): Promise<Job<T>> {
    const gate = this.#gate;
    await gate.acquire();
    if (this.closing) {
      gate.release();
      return undefined as unknown as Job<T>; // BullMQ's own "no job" (its typing says Job)
    }
    let job: Job<T> | undefined;
    try {
      job = await super.moveToActive(token, name);
    } finally {
      if (!job) gate.release();
    }
    return job;
  }

  override async processJob(
    job: Job<T>,
    token: string,
    fetchNextCallback: () => boolean = () => true,
  ): Promise<Job<T> | undefined> {
    const gate = this.#gate;
    let next: Job<T> | undefined;
    try {
      // BullMQ may fetch this partition's next job as it completes this one: the slot then passes to that job,
      // unless another partition is waiting for a slot (it goes to that one: partitions take turns).
      next =
        (await super.processJob(job, token, () => gate.waiting === 0 && fetchNextCallback())) || undefined;
      return next;
    } finally {
      if (!next) gate.release();
    }
  }
}
