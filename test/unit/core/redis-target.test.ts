// Tests: the connection plumbing of core/redis-target.ts and queue/connection.ts: one [redis] target gives
// the same ioredis options to every client and to BullMQ (plain url, Sentinel with the url's credentials,
// db and TLS), messages never show the password, and a Cluster target is refused, not half-connected.
import { describe, expect, it } from 'vitest';
import {
  CLUSTER_NOT_YET,
  connectionOf,
  describeTarget,
  parseHostPort,
  RedisClusterUnsupportedError,
} from '../../../src/core/redis-target.ts';
import { queueConnection } from '../../../src/queue/connection.ts';

const SENTINEL = {
  url: 'rediss://app:p%40ss@ignored.example:6380/3',
  sentinels: ['10.0.0.5:26379', '[::1]:26380'],
  sentinel_master: 'baton',
};

describe('RedisTarget → connection options', () => {
  it('passes a plain url through unchanged, for ioredis and for BullMQ', () => {
    const target = { url: 'redis://:secret@10.0.0.9:6379/1' };
    expect(connectionOf(target)).toEqual({ url: target.url, options: {} });
    expect(queueConnection(target)).toEqual({ url: target.url, maxRetriesPerRequest: null });
  });

  it('connects through the sentinels with the url carrying username, password, db and TLS', () => {
    const expected = {
      sentinels: [
        { host: '10.0.0.5', port: 26379 },
        { host: '::1', port: 26380 },
      ],
      name: 'baton',
      username: 'app',
      password: 'p@ss',
      db: 3,
      tls: {},
      enableTLSForSentinelMode: true,
    };
    expect(connectionOf(SENTINEL)).toEqual({ options: expected });
    // BullMQ gets the same options and no url (whose host would otherwise win).
    expect(queueConnection(SENTINEL)).toEqual({ ...expected, maxRetriesPerRequest: null });
  });

  it('adds nothing the url does not say (no password, db 0, plain TCP)', () => {
    const options = connectionOf({ ...SENTINEL, url: 'redis://127.0.0.1:6379' }).options;
    expect(options).toEqual({ sentinels: expect.any(Array), name: 'baton' });
  });

  it('refuses a Cluster target everywhere a connection is made', () => {
    const cluster = { url: 'redis://x:6379', cluster_nodes: ['redis://10.0.0.5:6379'] };
    expect(() => connectionOf(cluster)).toThrow(RedisClusterUnsupportedError);
    expect(() => queueConnection(cluster)).toThrow(CLUSTER_NOT_YET);
  });

  it('describes a target for messages without its password', () => {
    expect(describeTarget({ url: 'redis://:secret@10.0.0.9:6379' })).toBe(
      'redis://:***@10.0.0.9:6379 ([redis] url)',
    );
    expect(describeTarget(SENTINEL)).toBe(
      'master "baton" through sentinels 10.0.0.5:26379, [::1]:26380 ([redis] sentinels)',
    );
  });

  it('parses host:port forms', () => {
    expect(parseHostPort('sentinel-a.internal:26379')).toEqual({ host: 'sentinel-a.internal', port: 26379 });
    expect(parseHostPort('[fe80::1]:1')).toEqual({ host: 'fe80::1', port: 1 });
    for (const bad of ['host', 'host:', ':26379', 'host:0', 'host:65536', 'a b:1', 'redis://h:1']) {
      expect(parseHostPort(bad)).toBeUndefined();
    }
  });
});
