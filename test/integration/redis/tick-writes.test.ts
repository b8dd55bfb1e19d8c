// Tick-coalesced writes (core/tick-writes.ts) against a RESP server of the test's own, which answers only when the
// test says: a tick's commands leave in one write, a later command leaves while an earlier one still waits for its
// reply (ioredis's auto-pipelining held it), and each reply resolves its own command.
import { createServer, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { coalesceTickWrites } from '../../../src/core/tick-writes.ts';
import { waitFor } from '../../helpers/wait.ts';

/** Commands as the server received them, and the socket to answer on; handshake commands are answered at once. */
function respServer() {
  const received: string[][] = [];
  let client: Socket | undefined;
  const server: Server = createServer((socket) => {
    client = socket;
    let buf = '';
    socket.on('data', (data) => {
      buf += data.toString('utf8');
      for (;;) {
        const parsed = parseCommand(buf);
        if (!parsed) break;
        buf = buf.slice(parsed.used);
        if (parsed.args[0]?.toLowerCase() === 'client') socket.write('+OK\r\n');
        else received.push(parsed.args);
      }
    });
  });
  return {
    received,
    reply: (text: string) => client?.write(`$${Buffer.byteLength(text)}\r\n${text}\r\n`),
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function parseCommand(buf: string): { args: string[]; used: number } | null {
  const head = /^\*(\d+)\r\n/.exec(buf);
  if (!head) return null;
  let at = head[0].length;
  const args: string[] = [];
  for (let i = 0; i < Number(head[1]); i++) {
    const len = /^\$(\d+)\r\n/.exec(buf.slice(at));
    if (!len) return null;
    at += len[0].length;
    if (buf.length < at + Number(len[1]) + 2) return null;
    args.push(buf.slice(at, at + Number(len[1])));
    at += Number(len[1]) + 2;
  }
  return { args, used: at };
}

let server: ReturnType<typeof respServer>;
let redis: Redis;
afterEach(async () => {
  redis?.disconnect();
  await server?.close();
});

async function connect() {
  server = respServer();
  const port = await server.listen();
  redis = coalesceTickWrites(
    new Redis({ port, host: '127.0.0.1', protocol: 2, enableReadyCheck: false, lazyConnect: true }),
  );
  await redis.connect();
}

describe('tick-coalesced Redis writes', () => {
  it('writes the commands one tick issues in one write', async () => {
    await connect();
    const stream = (redis as unknown as { stream: { _writev: unknown; _write: unknown } }).stream;
    let writes = 0;
    for (const name of ['_write', '_writev'] as const) {
      const original = stream[name] as (...a: unknown[]) => unknown;
      stream[name] = function (this: unknown, ...a: unknown[]) {
        writes++;
        return original.apply(this, a);
      };
    }
    const replies = Array.from({ length: 10 }, (_, i) => redis.get(`k${i}`));
    await waitFor(() => server.received.length === 10, 5000, 'the ten commands');
    expect(writes).toBe(1);
    expect(server.received.map((c) => c[1])).toEqual(Array.from({ length: 10 }, (_, i) => `k${i}`));
    for (let i = 0; i < 10; i++) server.reply(`v${i}`);
    expect(await Promise.all(replies)).toEqual(Array.from({ length: 10 }, (_, i) => `v${i}`));
  });

  it('sends a later command while an earlier one waits for its reply, and resolves each on its own reply', async () => {
    await connect();
    const first = redis.get('first');
    await waitFor(() => server.received.length === 1, 5000, 'the first command');
    const second = redis.get('second');
    // Auto-pipelining would hold this until `first` is answered.
    await waitFor(
      () => server.received.length === 2,
      5000,
      'the second command, sent before the first is answered',
    );
    let secondDone = false;
    void second.then(() => {
      secondDone = true;
    });
    server.reply('one');
    expect(await first).toBe('one');
    expect(secondDone).toBe(false);
    server.reply('two');
    expect(await second).toBe('two');
  });
});
