// Tests: the connection plumbing of core/redis-target.ts and queue/connection.ts: one [redis] target gives
// the same ioredis options to every client and to BullMQ (plain url, Sentinel with the url's credentials,
// db and TLS; Cluster seed nodes with the first node's credentials and TLS), messages never show the password.
import { RedisConnection } from 'bullmq';
import { Cluster } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createRedis } from '../../../src/core/redis.ts';
import { connectionOf, describeTarget, parseHostPort } from '../../../src/core/redis-target.ts';
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

  it('gives a Cluster target its seed nodes, with username, password and TLS of the URLs for every node', () => {
    const cluster = {
      url: 'redis://ignored:6379',
      cluster_nodes: [
        'rediss://app:p%40ss@10.0.0.5:7000',
        'rediss://app:p%40ss@[::1]:7001',
        'rediss://app:p%40ss@h',
      ],
    };
    const nodes = [
      { host: '10.0.0.5', port: 7000 },
      { host: '::1', port: 7001 },
      { host: 'h', port: 6379 },
    ];
    const options = { username: 'app', password: 'p@ss', tls: {} };
    expect(connectionOf(cluster)).toEqual({ options, cluster: nodes });
    // BullMQ gets the nodes under one marked key, which the client factory it now has turns into a Cluster.
    expect(queueConnection(cluster)).toEqual({
      baton_cluster: { nodes, options },
      maxRetriesPerRequest: null,
    });
    expect(RedisConnection.clientFactory).toBeTypeOf('function');
    const client = createRedis(cluster, { lazy: true });
    expect(client).toBeInstanceOf(Cluster);
    expect((client as unknown as Cluster).options.redisOptions).toEqual({
      ...options,
      maxRetriesPerRequest: null,
    });
    client.disconnect();
  });

  it('describes a target for messages without its password', () => {
    expect(describeTarget({ url: 'redis://:secret@10.0.0.9:6379' })).toBe(
      'redis://:***@10.0.0.9:6379 ([redis] url)',
    );
    expect(describeTarget(SENTINEL)).toBe(
      'master "baton" through sentinels 10.0.0.5:26379, [::1]:26380 ([redis] sentinels)',
    );
    expect(
      describeTarget({
        url: 'redis://x',
        cluster_nodes: ['redis://:pw@10.0.0.5:7000', 'redis://:pw@10.0.0.6:7000'],
      }),
    ).toBe(
      'Redis Cluster through redis://:***@10.0.0.5:7000, redis://:***@10.0.0.6:7000 ([redis] cluster_nodes)',
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
