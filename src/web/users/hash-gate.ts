// A bound on concurrent secret hashing per process: scrypt runs on libuv's thread pool (4 threads), which the
// gateway also needs for file reads and DNS, and takes 32 MiB each; sign-ins from many addresses at once (each
// within its own limit) must not starve the rest of the gateway. Past the queue, a sign-in is refused as busy.

export const HASHING_AT_ONCE = 2;
export const HASHING_QUEUE = 16;

export interface HashGate {
  /** `work`'s result, or undefined (work not run) when HASHING_AT_ONCE run and HASHING_QUEUE wait already. */
  run<T>(work: () => Promise<T>): Promise<T | undefined>;
}

export function createHashGate(atOnce = HASHING_AT_ONCE, queue = HASHING_QUEUE): HashGate {
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    async run(work) {
      if (running >= atOnce) {
        if (waiting.length >= queue) return undefined;
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else running++;
      try {
        return await work();
      } finally {
        // The slot passes straight to the next waiter (running stays counted), else it frees.
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    },
  };
}
