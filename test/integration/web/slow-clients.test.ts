// Slow and greedy clients against the gateway's HTTP server over real TCP (issue 21 item 4): a body dribbled (or
// never sent) and headers never finished are cut off at the request timeout; an oversized body is refused.

import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createAbortBus } from '../../../src/fleet/abort-bus.ts';
import { createOpsDeps } from '../../../src/ops-api/ops-deps.ts';
import { BODY_LIMIT_BYTES, createOpsServer } from '../../../src/ops-api/ops-server.ts';
import { registerWeb } from '../../../src/web/register-web.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { configFromToml } from '../../helpers/test-config.ts';

const prefix = uniquePrefix('slow-clients');
const redis = testRedis();
const subscriber = testRedis();
let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  const logger = createSilentLogger();
  const config = configFromToml('[gateway]\napi_token = "tok-slow-clients-9"\n', {
    redisPrefix: prefix,
    dataDir: '/tmp/baton-test',
  });
  const abortBus = createAbortBus(redis, subscriber, prefix, logger);
  app = createOpsServer({
    ...createOpsDeps({ config, redis, logger, load: { diagnostics: [], droppedSections: [] }, abortBus }),
    requestTimeoutMs: 600,
    web: registerWeb,
  });
  app.addHook('onClose', () => abortBus.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await app.close();
  await deletePrefix(redis, prefix);
  redis.disconnect();
  subscriber.disconnect();
});

/** Writes `head`, then nothing; resolves with what the server sent and when it closed (or 'open' after `ms`). */
function holdOpen(head: string, ms: number): Promise<{ closedAfterMs: number | 'open'; reply: string }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket: Socket = connect(port, '127.0.0.1', () => socket.write(head));
    let reply = '';
    socket.on('data', (d) => {
      reply += d.toString();
    });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ closedAfterMs: 'open', reply });
    }, ms);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ closedAfterMs: Date.now() - started, reply });
    });
    socket.on('error', () => {});
  });
}

describe('slow clients', () => {
  it('cuts off a request whose body never arrives', async () => {
    const r = await holdOpen(
      'POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 500\r\n\r\nlogin=a',
      5000,
    );
    expect(r.closedAfterMs).not.toBe('open');
    expect(r.reply).toMatch(/^HTTP\/1\.1 408/);
  });

  it('cuts off headers that never end', async () => {
    const r = await holdOpen('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1', 5000);
    expect(r.closedAfterMs).not.toBe('open');
  });

  it('leaves a stream (a response, not a request) open past the request timeout', async () => {
    const r = await holdOpen(
      'GET /api/runs/0d6c4c6e-8a0e-4c51-9d5e-1a2b3c4d5e61/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer tok-slow-clients-9\r\n\r\n',
      2500,
    );
    expect(r.closedAfterMs).toBe('open');
    expect(r.reply).toMatch(/^HTTP\/1\.1 200/);
  });

  it('refuses a body over the limit with a clear error', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `login=a&token=${'x'.repeat(BODY_LIMIT_BYTES + 1)}`,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toContain('request body too large');
  });
});
