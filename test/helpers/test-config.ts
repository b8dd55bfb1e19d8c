// The one way tests build a BatonConfig: TOML text through the real loader (defaults, validation and
// normalisation exactly as for users), plus the TOML fragments the tests share.
import { parse } from 'smol-toml';
import { type LoadResult, loadConfigText } from '../../src/config/index.ts';
import type { BatonConfig } from '../../src/config/types.ts';
import type { RedisTarget } from '../../src/core/redis-target.ts';
import { REDIS_URL, redisTargetToml } from './redis.ts';

export interface TestConfigOptions {
  /** The environment `${NAME}` values are interpolated from (default: none). */
  env?: Record<string, string | undefined>;
  /** Written as `gateway.data_dir` when the text sets none. */
  dataDir?: string;
  /** Written as `redis.prefix` when the text sets none; `redis.url` too (`redisUrl`, default the test Redis). */
  redisPrefix?: string;
  redisUrl?: string;
  /** What relative `data_dir` and workspace paths resolve against (the loader's default: the current directory). */
  baseDir?: string;
}

export interface TestConfig {
  config: BatonConfig;
  /** The loader's whole answer, for tests that pass the load's diagnostics on (e.g. to /healthz). */
  load: LoadResult;
  /** The text that was loaded: `toml` with the defaults of `opts` added. */
  text: string;
}

export type TomlValue = string | number | boolean | readonly (string | number | boolean)[];

/** A TOML value: a string, number, boolean or array of them (JSON's forms of these are valid TOML). */
export const tomlValue = (value: TomlValue): string => JSON.stringify(value);

/**
 * The `key = value` lines of a table's body (keys may be dotted: `"delegation_policy.mode"`); an undefined value
 * leaves its key out. For tests that merge per-test keys over a base table, which TOML text cannot repeat.
 */
export function tomlKeys(entries: Readonly<Record<string, TomlValue | undefined>>): string {
  return Object.entries(entries)
    .filter((e): e is [string, TomlValue] => e[1] !== undefined)
    .map(([key, value]) => `${key} = ${tomlValue(value)}\n`)
    .join('');
}

/** Loads `toml`; throws, listing every error diagnostic with its TOML path, when it has any error. */
export function loadTestConfig(toml: string, opts: TestConfigOptions = {}): TestConfig {
  const text = withDefaults(toml, opts);
  const load = loadConfigText(text, opts.env ?? {}, opts.baseDir ? { baseDir: opts.baseDir } : {});
  const errors = load.diagnostics.filter((d) => d.severity === 'error');
  if (!load.config || errors.length > 0) {
    const lines = errors.map((e) => `  ${e.path || '(document)'}: ${e.message}`);
    const numbered = text.split('\n').map((l, i) => `${String(i + 1).padStart(4)} | ${l}`);
    throw new Error(
      `test config does not load (${errors.length} error${errors.length === 1 ? '' : 's'}):\n${lines.join('\n')}\n` +
        `--- the text loaded ---\n${numbered.join('\n')}`,
    );
  }
  return { config: load.config, load, text };
}

/** The config `toml` loads to (see loadTestConfig). */
export function configFromToml(toml: string, opts: TestConfigOptions = {}): BatonConfig {
  return loadTestConfig(toml, opts).config;
}

/** Adds `gateway.data_dir` and `redis.url`/`redis.prefix` where `opts` asks for them and the text sets none. */
function withDefaults(toml: string, opts: TestConfigOptions): string {
  let doc: Record<string, unknown>;
  try {
    doc = parse(toml);
  } catch {
    return toml; // the loader reports the syntax error
  }
  let text = toml;
  if (opts.dataDir !== undefined) text = ensureKeys(text, doc, 'gateway', { data_dir: opts.dataDir });
  if (opts.redisPrefix !== undefined)
    text = ensureKeys(text, doc, 'redis', { url: opts.redisUrl ?? REDIS_URL, prefix: opts.redisPrefix });
  return text;
}

/** Writes the keys of `entries` the document's `table` lacks: under its `[table]` header, else as dotted keys. */
function ensureKeys(
  text: string,
  doc: Record<string, unknown>,
  table: string,
  entries: Record<string, string>,
) {
  const present = doc[table];
  const has = (key: string) => typeof present === 'object' && present !== null && key in present;
  const missing = Object.entries(entries).filter(([key]) => !has(key));
  if (missing.length === 0) return text;
  const header = new RegExp(`^[ \\t]*\\[${table}\\][ \\t]*(#.*)?$`, 'm');
  if (header.test(text)) {
    const lines = missing.map(([key, value]) => `${key} = ${tomlValue(value)}`).join('\n');
    return text.replace(header, (h) => `${h}\n${lines}`);
  }
  // Top-level dotted keys, before anything else in the file (so before its first table header).
  const lines = missing.map(([key, value]) => `${table}.${key} = ${tomlValue(value)}\n`).join('');
  return `${lines}${text}`;
}

/** Agent `main` on the fake model, no provider retries, the empty `default` risk profile. `uri` is the model's
 * base URL, or a `${VAR}` the config loader expands. */
export const fakeModelAgentToml = (
  uri: string,
  opts: { autoApprove?: readonly string[]; vision?: boolean } = {},
) => `
[providers.models.custom.fake]
uri = "${uri}"
model = "fake-model"
${opts.vision === undefined ? '' : `vision = ${opts.vision}`}

[reliability]
provider_retries = 0

[risk_profiles.default]
${opts.autoApprove ? `auto_approve = ${JSON.stringify(opts.autoApprove)}` : ''}

[agents.main]
model_provider = "custom.fake"
risk_profile = "default"
`;

/** Agent `main` on the fake model at `${MODEL_URI}`, a model that accepts images (the inbound media tests). */
export const VISION_AGENT_TOML = fakeModelAgentToml(`\${MODEL_URI}`, { vision: true });

/** Agent `main` on the fake model at `${MODEL_URI}`, its send_file calls auto-approved (the media tests). */
export const SEND_FILE_AGENT_TOML = fakeModelAgentToml(`\${MODEL_URI}`, { autoApprove: ['send_file'] });

/** The head of a `baton` process's config: the test Redis under `prefix`, the gateway on 127.0.0.1:`port`. */
/** `[redis]` (the test Redis, or `target`: Sentinel, Cluster) and `[gateway]` on a port and data dir. */
export const redisGatewayToml = (
  prefix: string,
  port: number,
  dataDir: string,
  target?: RedisTarget,
) => `schema_version = 3
[redis]
${target ? redisTargetToml(target) : `url = "${REDIS_URL}"`}
prefix = "${prefix}"

[gateway]
host = "127.0.0.1"
port = ${port}
data_dir = "${dataDir}"
`;

/**
 * `main` may delegate to `writer` without asking (`ops` profile), each on its own model of the fake server at
 * `uri`; `mainExtra` lines go into `[agents.main]`.
 */
export const mainWithWriterToml = (uri: string, o: { writerModel?: string; mainExtra?: string } = {}) => `
[providers.models.custom.main]
uri = "${uri}"
model = "main-model"

[providers.models.custom.writer]
uri = "${uri}"
model = "${o.writerModel ?? 'writer-model'}"

[reliability]
provider_retries = 0

[risk_profiles.ops]
delegation_policy = { mode = "allow" }
auto_approve = ["delegate"]

[agents.main]
model_provider = "custom.main"
risk_profile = "ops"
delegates = ["writer"]
${o.mainExtra ?? ''}
[agents.writer]
model_provider = "custom.writer"
risk_profile = "ops"
`;
