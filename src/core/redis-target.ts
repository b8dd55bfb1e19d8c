// Where baton's Redis is: one plain URL, a Sentinel-managed master, or a Redis Cluster (spec/config.md
// §15.1). Every connection (ioredis clients and BullMQ's own) takes its options from here, through
// core/redis.ts and queue/connection.ts.

/**
 * The connection part of the normalised `[redis]` section (BatonConfig.redis is one). `url` always carries
 * the password, username, database number and TLS (`rediss://`); its host is used only without sentinels.
 */
export interface RedisTarget {
  url: string;
  /** `host:port` of the sentinels to ask for the master of `sentinel_master`. */
  sentinels?: readonly string[] | undefined;
  sentinel_master?: string | undefined;
  /** Redis Cluster seed nodes (`redis://` / `rediss://` URLs, which also carry username, password, TLS). */
  cluster_nodes?: readonly string[] | undefined;
}

/** A target for one plain URL (tests, tools). */
export const urlTarget = (url: string): RedisTarget => ({ url });

/** `host:port` (host a name, IPv4, or `[IPv6]`; port 1–65535), or undefined when the text is not one. */
export function parseHostPort(text: string): { host: string; port: number } | undefined {
  const m = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})$/.exec(text.trim());
  if (!m?.[1] || !m[2]) return undefined;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return undefined;
  return { host: m[1].replace(/^\[(.*)\]$/, '$1'), port };
}

/** A `redis://` or `rediss://` URL with a host. */
export function isRedisUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const u = new URL(text);
  return (u.protocol === 'redis:' || u.protocol === 'rediss:') && u.hostname !== '';
}

export const usesSentinels = (t: RedisTarget): boolean => (t.sentinels?.length ?? 0) > 0;
export const usesCluster = (t: RedisTarget): boolean => (t.cluster_nodes?.length ?? 0) > 0;

/** The URL with any password masked, for messages. */
export function displayRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable [redis] url)';
  }
}

/** Where the target points, for messages (no secrets): the URL, or the sentinels and master name. */
export function describeTarget(t: RedisTarget): string {
  if (usesCluster(t)) {
    return `Redis Cluster through ${(t.cluster_nodes ?? []).map(displayRedisUrl).join(', ')} ([redis] cluster_nodes)`;
  }
  if (usesSentinels(t)) {
    return `master "${t.sentinel_master ?? ''}" through sentinels ${(t.sentinels ?? []).join(', ')} ([redis] sentinels)`;
  }
  return `${displayRedisUrl(t.url)} ([redis] url)`;
}

/** The ioredis options a target adds (a subset of ioredis's RedisOptions that BullMQ's type accepts too). */
export interface TargetOptions {
  sentinels?: { host: string; port: number }[];
  name?: string;
  username?: string;
  password?: string;
  db?: number;
  tls?: Record<string, never>;
  enableTLSForSentinelMode?: boolean;
}

const decoded = (s: string): string | undefined => (s === '' ? undefined : decodeURIComponent(s));

/**
 * ioredis options for a Sentinel target: the sentinels and master name, with the password, username, db
 * and TLS of `url` applied to the master (and replica) connections. The sentinels themselves are asked
 * without a password or TLS.
 */
export function sentinelOptions(t: RedisTarget): TargetOptions {
  const u = new URL(t.url);
  const db = Number(u.pathname.replace(/^\//, '') || '0');
  const username = decoded(u.username);
  const password = decoded(u.password);
  return {
    sentinels: (t.sentinels ?? []).map((s) => {
      const hp = parseHostPort(s);
      if (!hp) throw new Error(`[redis] sentinels: "${s}" is not host:port`);
      return hp;
    }),
    name: t.sentinel_master ?? '',
    ...(username ? { username } : {}),
    ...(password ? { password } : {}),
    ...(Number.isInteger(db) && db > 0 ? { db } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {}, enableTLSForSentinelMode: true } : {}),
  };
}

/**
 * ioredis options for a Cluster target: the seed nodes, and the options every node connection takes
 * (username, password, TLS of the first node's URL; config check makes the nodes agree on them). A Cluster
 * has database 0 only, so no `db`.
 */
export function clusterOptions(t: RedisTarget): {
  nodes: { host: string; port: number }[];
  options: TargetOptions;
} {
  const urls = (t.cluster_nodes ?? []).map((n) => new URL(n));
  const first = urls[0];
  if (!first) throw new Error('[redis] cluster_nodes: no seed node');
  const username = decoded(first.username);
  const password = decoded(first.password);
  return {
    nodes: urls.map((u) => ({
      host: u.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: Number(u.port || 6379),
    })),
    options: {
      ...(username ? { username } : {}),
      ...(password ? { password } : {}),
      ...(first.protocol === 'rediss:' ? { tls: {} } : {}),
    },
  };
}

/**
 * How ioredis is to be constructed for `t`: `new Redis(url, options)`, `new Redis(options)` (Sentinel), or
 * `new Cluster(cluster, { redisOptions: options })`. Callers must handle `cluster`, so no code path can
 * silently talk to one node of a Cluster as if it were all of it.
 */
export function connectionOf(t: RedisTarget): {
  url?: string;
  options: TargetOptions;
  cluster?: { host: string; port: number }[];
} {
  if (usesCluster(t)) {
    const { nodes, options } = clusterOptions(t);
    return { options, cluster: nodes };
  }
  return usesSentinels(t) ? { options: sentinelOptions(t) } : { url: t.url, options: {} };
}
