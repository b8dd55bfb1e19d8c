// What a reload changes: the TOML paths whose values differ, and the keys that only a restart applies.

import { channelOf } from './lookup.ts';
import { formatPath } from './toml-path.ts';
import type { BatonConfig } from './types.ts';
import { liveChannelKeys } from './views.ts';

/** Read once when the process starts (connections, listeners, pool sizes): a reload keeps the running value. */
const RESTART_ONLY = [
  ['redis', 'url'],
  ['redis', 'prefix'],
  ['redis', 'sentinels'],
  ['redis', 'sentinel_master'],
  ['redis', 'cluster_nodes'],
  ['redis', 'partitions'],
  ['gateway', 'host'],
  ['gateway', 'port'],
  ['gateway', 'api_token'],
  ['gateway', 'trusted_proxies'],
  ['worker', 'concurrency'],
  ['worker', 'background_concurrency'],
  ['worker', 'shutdown_grace_secs'],
  ['worker', 'transcript_max_entries'],
] as const;

/** Keys a running channel adapter (or its reply pump) was built with. */
const CHANNEL_CONNECTION_KEYS = [
  'bot_token',
  'api_base_url',
  'webhook_url',
  'webhook_secret',
  'app_token',
  'signing_secret',
  'guild_ids',
  'channel_ids',
  'thread_replies',
  'reply_min_interval_secs',
];

type Path = (string | number)[];

/** A field read by name, without a cast (the restart-only lists name fields of several shapes). */
const fieldOf = (obj: object | undefined, key: string): unknown =>
  obj ? Object.getOwnPropertyDescriptor(obj, key)?.value : undefined;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => same(a[k], b[k]));
  }
  return false;
}

/** The TOML path of a normalised config path: providers and channels are keyed `<type>.<alias>` there. */
function tomlPath(path: Path): Path {
  const [section, key, ...rest] = path;
  if ((section === 'providers' || section === 'channels') && typeof key === 'string') {
    const dot = key.indexOf('.');
    const head = section === 'providers' ? ['providers', 'models'] : ['channels'];
    return [...head, key.slice(0, dot), key.slice(dot + 1), ...rest];
  }
  if (section === 'cost' && key === 'rates' && rest[0] === 'models')
    return ['cost', 'rates', 'providers', ...rest];
  return path;
}

function diff(a: unknown, b: unknown, path: Path, out: Path[]): void {
  if (isObject(a) && isObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) diff(a[k], b[k], [...path, k], out);
    return;
  }
  if (!same(a, b)) out.push(path);
}

/**
 * Paths whose value differs, deepest table level (arrays are compared whole). Values are never shown: many
 * are secrets. The derived `secrets` list and the alias/key fields that repeat a table name are skipped.
 */
export function changedPaths(previous: BatonConfig, next: BatonConfig): string[] {
  const out: Path[] = [];
  const { secrets: _a, ...prev } = previous;
  const { secrets: _b, ...nxt } = next;
  diff(prev, nxt, [], out);
  return out.map((p) => formatPath(tomlPath(p)));
}

export interface RestartOnly {
  /** `next` with the running values of the restart-only keys put back. */
  config: BatonConfig;
  /** TOML paths whose new value only a restart applies. */
  paths: string[];
}

/** The keys of `next` that a reload does not apply, and the config that keeps their running values. */
export function keepRestartOnly(previous: BatonConfig, next: BatonConfig): RestartOnly {
  const paths: string[] = [];
  const config: BatonConfig = {
    ...next,
    redis: { ...next.redis },
    gateway: { ...next.gateway },
    worker: { ...next.worker },
  };
  for (const [section, key] of RESTART_ONLY) {
    const running = fieldOf(previous[section], key);
    if (!same(running, fieldOf(config[section], key))) {
      paths.push(formatPath([section, key]));
      Object.assign(config[section], { [key]: running });
    }
  }
  const wasLive = new Set(liveChannelKeys(previous));
  const isLive = new Set(liveChannelKeys(next));
  for (const key of new Set([...wasLive, ...isLive])) {
    if (wasLive.has(key) !== isLive.has(key)) {
      paths.push(formatPath(tomlPath(['channels', key])));
      continue;
    }
    const [before, after] = [channelOf(previous, key), channelOf(next, key)];
    for (const k of CHANNEL_CONNECTION_KEYS)
      if (!same(fieldOf(before, k), fieldOf(after, k)))
        paths.push(formatPath(tomlPath(['channels', key, k])));
  }
  return { config, paths };
}
