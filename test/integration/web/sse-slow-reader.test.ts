// A Server-Sent Events client that never reads (issue 21 item 4): the stream is cut once too much is waiting for
// it, over real TCP, instead of the gateway buffering every frame for it.

import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSseStreams } from '../../../src/ops-api/sse-streams.ts';

const app = Fastify();
const FRAME = 'x'.repeat(64 * 1024);
let port: number;

beforeAll(async () => {
  const streams = createSseStreams(app, 60_000, 256 * 1024);
  app.get('/firehose', async (_req, reply) =>
    streams.serve(
      reply,
      async (write) => {
        const timer = setInterval(() => write({ data: FRAME }), 2);
        return () => clearInterval(timer);
      },
      () => {},
    ),
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(() => app.close());

const connections = () =>
  new Promise<number>((r, j) => app.server.getConnections((e, n) => (e ? j(e) : r(n))));

describe('a stream whose client never reads', () => {
  it('is cut once the unsent frames pass the limit', async () => {
    const socket: Socket = connect(port, '127.0.0.1', () => {
      socket.write('GET /firehose HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      socket.pause(); // never reads: the kernel buffers fill, then the server's
    });
    socket.on('error', () => {});
    await new Promise((r) => setTimeout(r, 200));
    let open = await connections();
    for (let i = 0; i < 50 && open > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      open = await connections();
    }
    socket.destroy();
    expect(open).toBe(0);
  });
});
