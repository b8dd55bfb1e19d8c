// One write per tick without one batch in flight. ioredis's auto-pipelining sends a tick's commands together but
// keeps a single batch in flight per connection: commands issued while a batch waits for its replies wait for it,
// so a burst's thousands of inbound accepts held every running turn's writes for their whole round trip, and
// every command answered only when its whole batch had. Here each command is written as it is issued, replies
// are taken one by one, and the socket is corked for the rest of the tick (Node's documented cork-then-uncork-in-
// nextTick pattern), so what a tick issues still leaves in one writev.
import type { Writable } from 'node:stream';
import type { Redis } from 'ioredis';

const corked = new WeakSet<Writable>();
const patched = new WeakSet<Writable>();

function uncork(stream: Writable): void {
  corked.delete(stream);
  stream.uncork();
}

/** Wraps the socket's write: the first write of a tick corks it, and the tick's end uncorks it. */
export function coalesceWrites(stream: Writable): void {
  if (patched.has(stream)) return;
  patched.add(stream);
  const write = stream.write;
  stream.write = function (this: Writable, ...args: Parameters<Writable['write']>) {
    if (!corked.has(stream) && !stream.writableEnded) {
      corked.add(stream);
      stream.cork();
      process.nextTick(uncork, stream);
    }
    return write.apply(this, args);
  } as Writable['write'];
}

/** Applies coalesceWrites to every socket the client opens (each reconnect opens a new one). */
export function coalesceTickWrites(redis: Redis): Redis {
  const apply = () => {
    const stream = (redis as unknown as { stream?: Writable }).stream;
    if (stream) coalesceWrites(stream);
  };
  redis.on('connect', apply);
  apply();
  return redis;
}
