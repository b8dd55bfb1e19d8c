// A TCP proxy in front of Redis that can hold Redis's replies: what clients send while the replies are held
// shows what they send without waiting for an answer (e.g. a command written right behind another).

import type { AddressInfo } from 'node:net';
import { connect, createServer, type Socket } from 'node:net';

export interface ReplyGateProxy {
  /** `redis://127.0.0.1:<port>`: connect here instead of Redis. */
  url: string;
  /** Holds every reply from now on, and starts recording what the clients send. */
  hold(): void;
  /** What clients sent since `hold()` (all connections, in arrival order). */
  sentSinceHold(): string;
  /** Lets the held replies (and later ones) through. */
  release(): void;
  close(): Promise<void>;
}

export async function startReplyGateProxy(redisPort = 6379): Promise<ReplyGateProxy> {
  let holding = false;
  let sent = '';
  const held: { to: Socket; data: Buffer }[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(redisPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (d) => {
      if (holding) sent += d.toString('latin1');
      upstream.write(d);
    });
    upstream.on('data', (d) => {
      if (holding) held.push({ to: client, data: d });
      else client.write(d);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    hold() {
      holding = true;
      sent = '';
    },
    sentSinceHold: () => sent,
    release() {
      holding = false;
      for (const { to, data } of held.splice(0)) if (!to.destroyed) to.write(data);
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
