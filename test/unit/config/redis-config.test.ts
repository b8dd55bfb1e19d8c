// Tests: the [redis] keys of spec/config.md §15.1 (sentinels, sentinel_master, cluster_nodes, partitions):
// accepted forms, defaults, the exact errors with their TOML paths, and Cluster node URLs one client can use.
import { describe, expect, it } from 'vitest';
import { configOf, errors, load, MINIMAL, messages, warnings } from './load-helper.ts';

const withRedis = (lines: string) => `${MINIMAL}\n[redis]\n${lines}\n`;

describe('[redis] Sentinel and Cluster keys', () => {
  it('default to a plain url with one partition', () => {
    const config = configOf(load(MINIMAL));
    expect(config.redis).toEqual({
      url: 'redis://127.0.0.1:6379',
      prefix: 'baton',
      sentinels: undefined,
      sentinel_master: undefined,
      cluster_nodes: undefined,
      partitions: 1,
    });
  });

  it('accept sentinels with a master name; url still carries the password, which stays a secret', () => {
    const r = load(
      withRedis(`url = "rediss://:\${REDIS_PASSWORD}@ignored:6379/2"
sentinels = ["10.0.0.5:26379", "sentinel-b.internal:26380", "[::1]:26379"]
sentinel_master = " baton "`),
      { REDIS_PASSWORD: 's3cret-redis-password' },
    );
    expect(messages(r)).toEqual([]);
    const config = configOf(r);
    expect(config.redis).toMatchObject({
      sentinels: ['10.0.0.5:26379', 'sentinel-b.internal:26380', '[::1]:26379'],
      sentinel_master: 'baton',
      partitions: 1,
    });
    expect(config.secrets).toContain('s3cret-redis-password');
  });

  it('refuse both sentinels and cluster_nodes with the exact text of the spec', () => {
    const r = load(
      withRedis(`sentinels = ["10.0.0.5:26379"]
sentinel_master = "baton"
cluster_nodes = ["redis://10.0.0.6:6379"]`),
    );
    expect(errors(r)).toContain("Invalid config at 'redis': set either sentinels or cluster_nodes, not both");
    expect(r.fatal).toBe(true);
  });

  it('name the entry that is not host:port, and the missing master', () => {
    const r = load(withRedis(`sentinels = ["10.0.0.5:26379", "10.0.0.6", "h:0", "h:70000", 5]`));
    expect(errors(r)).toEqual([
      `Invalid config at 'redis.sentinels[1]': expected "host:port", e.g. "10.0.0.5:26379"`,
      `Invalid config at 'redis.sentinels[2]': expected "host:port", e.g. "10.0.0.5:26379"`,
      `Invalid config at 'redis.sentinels[3]': expected "host:port", e.g. "10.0.0.5:26379"`,
      "Invalid config at 'redis.sentinels[4]': expected string, found integer",
      "Invalid config at 'redis.sentinel_master': required when sentinels is set",
    ]);
    expect(r.fatal).toBe(true);
  });

  it('refuse an empty list and a blank master', () => {
    const r = load(withRedis(`sentinels = []\nsentinel_master = " "`));
    expect(errors(r)).toEqual([
      "Invalid config at 'redis.sentinels': must not be empty",
      "Invalid config at 'redis.sentinel_master': required when sentinels is set",
    ]);
  });

  it('warn about a master name without sentinels (and ignore it)', () => {
    const r = load(withRedis(`sentinel_master = "baton"`));
    expect(warnings(r)).toEqual(["Config warning at 'redis.sentinel_master': ignored without sentinels"]);
    expect(configOf(r).redis.sentinel_master).toBeUndefined();
  });

  it('check cluster node URLs and accept a Cluster with 16 partitions by default; passwords stay secrets', () => {
    const bad = load(
      withRedis(`cluster_nodes = ["redis://10.0.0.5:6379", "http://10.0.0.6:6379", "10.0.0.7:6379"]`),
    );
    expect(errors(bad)).toEqual([
      `Invalid config at 'redis.cluster_nodes[1]': expected a redis:// or rediss:// URL, e.g. "redis://10.0.0.5:6379"`,
      `Invalid config at 'redis.cluster_nodes[2]': expected a redis:// or rediss:// URL, e.g. "redis://10.0.0.5:6379"`,
    ]);
    const good = load(
      withRedis(
        `cluster_nodes = ["rediss://u:\${REDIS_PASSWORD}@10.0.0.5:6380", "rediss://u:\${REDIS_PASSWORD}@10.0.0.6:6380"]`,
      ),
      { REDIS_PASSWORD: 's3cret-cluster-password' },
    );
    expect(messages(good)).toEqual([]);
    expect(configOf(good).redis).toMatchObject({
      cluster_nodes: [
        'rediss://u:s3cret-cluster-password@10.0.0.5:6380',
        'rediss://u:s3cret-cluster-password@10.0.0.6:6380',
      ],
      partitions: 16,
    });
    expect(configOf(good).secrets).toContain('s3cret-cluster-password');
  });

  it('refuse cluster nodes that disagree on scheme or credentials, or name a database', () => {
    const r = load(
      withRedis(
        `cluster_nodes = ["redis://u:p@10.0.0.5:6379", "rediss://u:p@10.0.0.6:6379", "redis://u:q@10.0.0.7:6379", "redis://u:p@10.0.0.8:6379/2", "redis://u:p@10.0.0.9:6379/0"]`,
      ),
    );
    const disagree =
      'must use the same scheme, username and password as redis.cluster_nodes[0] (one client connects to every node)';
    expect(errors(r)).toEqual([
      `Invalid config at 'redis.cluster_nodes[1]': ${disagree}`,
      `Invalid config at 'redis.cluster_nodes[2]': ${disagree}`,
      "Invalid config at 'redis.cluster_nodes[3]': a Redis Cluster has database 0 only: leave the database number out of the URL",
    ]);
  });

  it('check partitions: an integer 1-256, each accepted on one Redis too', () => {
    expect(errors(load(withRedis('partitions = 0')))).toEqual([
      "Invalid config at 'redis.partitions': must be between 1 and 256",
    ]);
    expect(errors(load(withRedis('partitions = 2.0')))).toEqual([
      "Invalid config at 'redis.partitions': expected integer, found float",
    ]);
    expect(errors(load(withRedis('partitions = 257')))).toEqual([
      "Invalid config at 'redis.partitions': must be between 1 and 256",
    ]);
    for (const n of [1, 16, 256]) {
      const r = load(withRedis(`partitions = ${n}`));
      expect(messages(r)).toEqual([]);
      expect(configOf(r).redis.partitions).toBe(n);
    }
    const sentinel = load(
      withRedis('sentinels = ["10.0.0.5:26379"]\nsentinel_master = "baton"\npartitions = 4'),
    );
    expect(messages(sentinel)).toEqual([]);
    expect(configOf(sentinel).redis.partitions).toBe(4);
  });
});
