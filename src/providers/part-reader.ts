// A model reply's stream parts as stream-reply.ts reads them: a ReadableStream's reader (the SDK packages'
// doStream), or this queue that baton's own OpenAI-compatible client fills from its response events.
import type { SdkStreamPart } from './sdk-model.ts';

export type PartReadResult =
  | { done: false; value: SdkStreamPart }
  | { done: true; value?: SdkStreamPart | undefined };

export interface PartReader {
  read(): Promise<PartReadResult>;
  /** Stops the reply: its request ends if it is still running. Harmless after the end. */
  cancel(): Promise<void>;
}

type Waiter = {
  resolve: (r: PartReadResult) => void;
  reject: (err: unknown) => void;
};

const DONE: PartReadResult = { done: true, value: undefined };

/** Parts pushed by a producer, read one at a time; a failure is thrown by the read after the parts before it. */
export class PartQueue implements PartReader {
  private parts: SdkStreamPart[] = [];
  private head = 0;
  private waiter: Waiter | undefined;
  private closed = false;
  private failure: { error: unknown } | undefined;

  private readonly onCancel: () => void;

  constructor(onCancel: () => void) {
    this.onCancel = onCancel;
  }

  push(part: SdkStreamPart): void {
    if (this.closed) return;
    const w = this.waiter;
    if (w !== undefined) {
      this.waiter = undefined;
      w.resolve({ done: false, value: part });
    } else this.parts.push(part);
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.settleWaiter();
  }

  fail(error: unknown): void {
    if (this.closed) return;
    this.closed = true;
    this.failure = { error };
    this.settleWaiter();
  }

  read(): Promise<PartReadResult> {
    if (this.head < this.parts.length) {
      const value = this.parts[this.head++] as SdkStreamPart;
      if (this.head === this.parts.length) {
        this.parts = [];
        this.head = 0;
      }
      return Promise.resolve({ done: false, value });
    }
    if (this.failure !== undefined) return Promise.reject(this.failure.error);
    if (this.closed) return Promise.resolve(DONE);
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  cancel(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.parts = [];
      this.head = 0;
      this.onCancel();
      this.settleWaiter();
    }
    return Promise.resolve();
  }

  private settleWaiter(): void {
    const w = this.waiter;
    if (w === undefined) return;
    this.waiter = undefined;
    if (this.failure !== undefined) w.reject(this.failure.error);
    else w.resolve(DONE);
  }
}
